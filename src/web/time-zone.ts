/**
 * Times in a page in the reader's time zone (their preference `locale.timezone`). Every time a page
 * shows is a `<time datetime="<ISO>">` element (components/cells.ts and the pages that print
 * times), which the data gives in UTC; the page shell rewrites those elements' text once, over the
 * finished page, so no renderer needs to know who reads it. The `datetime` attribute keeps UTC.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    formats.set(tz, f);
  }
  return f;
}

/** `2026-11-30 03:12:05 GMT+1`: an instant as the zone's wall clock, with the zone's short name */
function timeIn(iso: string, tz: string): string | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  const p = Object.fromEntries(
    formatIn(tz)
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.timeZoneName}`;
}

const TIME_ELEMENT = /<time datetime="(\d{4}-\d\d-\d\dT[^"]+)">[^<]*<\/time>/g;

/** the page with the text of every date-and-time `<time>` element shown in `tz` (dates alone stay) */
export function localizeTimes(page: string, tz: string | undefined): string {
  if (!tz || tz === 'UTC' || !page.includes('<time ')) return page;
  return page.replace(TIME_ELEMENT, (whole, iso: string) => {
    const shown = timeIn(iso, tz);
    return shown === null ? whole : `<time datetime="${iso}">${shown}</time>`;
  });
}
