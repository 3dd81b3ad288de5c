// Progressive enhancement only: every page works without this file (web/README.md). No framework,
// no inline script (the pages' CSP allows only this file): type-ahead pickers over the REST API,
// pickers that follow the fields they depend on, keyboard shortcuts, one open menu at a time.

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  // GET filter forms: leave empty fields out of the URL
  if (form.method.toLowerCase() === 'get') {
    for (const input of form.querySelectorAll('input, select'))
      if (input.name && input.value === '' && !input.multiple) input.disabled = true;
  }
  // a button that deletes asks first
  const button = event.submitter;
  if (button?.dataset?.confirm && !window.confirm(button.dataset.confirm)) {
    event.preventDefault();
    return;
  }
  // a long post (an import) says it is working, once, and is not sent twice
  if (form.dataset.busy) {
    if (form.getAttribute('aria-busy') === 'true') {
      event.preventDefault();
      return;
    }
    form.setAttribute('aria-busy', 'true');
    const note = document.createElement('p');
    note.className = 'busy';
    note.setAttribute('role', 'status');
    note.textContent = form.dataset.busy;
    form.append(note);
  }
});

// a page shown again from the back-forward cache is not still busy
window.addEventListener('pageshow', () => {
  for (const form of document.querySelectorAll('form[aria-busy="true"]')) {
    form.removeAttribute('aria-busy');
    form.querySelector('p.busy')?.remove();
  }
});

// ---- list selection: the header box ticks the page; "all N matching" ticks every row it covers ----
for (const form of document.querySelectorAll('form.bulk')) {
  const rows = () => [...form.querySelectorAll('input[name="pk"]')];
  const page = form.querySelector('input.select-page');
  const all = form.querySelector('input[name="_all"]');
  if (page) {
    page.hidden = false;
    page.addEventListener('change', () => {
      for (const box of rows()) box.checked = page.checked;
      if (!page.checked && all) all.checked = false;
    });
  }
  all?.addEventListener('change', () => {
    if (all.checked) for (const box of rows()) box.checked = true;
    if (page) page.checked = all.checked;
  });
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'pk' && !event.target.checked) {
      if (all) all.checked = false;
      if (page) page.checked = false;
    }
  });
}

// ---- keyboard shortcuts: / search, n new, e edit, ? this list, Escape closes ----
const typing = (el) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));

function shortcutsDialog() {
  let dialog = document.getElementById('hotkeys');
  if (dialog) return dialog;
  dialog = document.createElement('dialog');
  dialog.id = 'hotkeys';
  dialog.setAttribute('aria-labelledby', 'hotkeys-title');
  const title = document.createElement('h2');
  title.id = 'hotkeys-title';
  title.textContent = 'Keyboard shortcuts';
  const list = document.createElement('dl');
  list.className = 'hotkeys';
  for (const [key, what] of [
    ['/', 'Search'],
    ['n', 'New object (on a list)'],
    ['e', 'Edit (on an object)'],
    ['?', 'This help'],
    ['Esc', 'Close menus and this help'],
  ]) {
    const dt = document.createElement('dt');
    dt.textContent = key;
    const dd = document.createElement('dd');
    dd.textContent = what;
    list.append(dt, dd);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.addEventListener('click', () => dialog.close());
  dialog.append(title, list, close);
  document.body.append(dialog);
  return dialog;
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    for (const d of document.querySelectorAll('details.menu-drop[open]')) d.open = false;
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if (event.key === '?') {
    shortcutsDialog().showModal();
    event.preventDefault();
    return;
  }
  const target = document.querySelector(`[data-hotkey="${CSS.escape(event.key)}"]`);
  if (!target) return;
  event.preventDefault();
  if (target instanceof HTMLInputElement) target.focus();
  else target.click();
});

// ---- one menu open at a time; a click elsewhere closes it ----
document.addEventListener(
  'toggle',
  (event) => {
    const opened = event.target;
    if (!(opened instanceof HTMLDetailsElement) || !opened.classList.contains('menu-drop') || !opened.open) return;
    for (const d of document.querySelectorAll('details.menu-drop[open]')) if (d !== opened) d.open = false;
  },
  true,
);
document.addEventListener('click', (event) => {
  if (event.target instanceof Element && event.target.closest('details.menu-drop')) return;
  for (const d of document.querySelectorAll('details.menu-drop[open]')) d.open = false;
});

// ---- pickers: choices from the REST API (brief form), narrowed by the fields they depend on ----
function pickerQuery(select, extra) {
  const q = new URLSearchParams(select.dataset.pickerFilters || '');
  const depends = select.dataset.pickerDepends ? JSON.parse(select.dataset.pickerDepends) : {};
  const form = select.form;
  for (const [param, field] of Object.entries(depends)) {
    q.delete(param);
    const source = form?.elements.namedItem(field);
    const value = source && 'value' in source ? source.value : '';
    if (value) q.set(param, value);
  }
  q.set('brief', 'true');
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q;
}

async function refill(select, extra) {
  const url = `${select.dataset.picker}?${pickerQuery(select, extra)}`;
  const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!res.ok) return;
  const body = await res.json();
  const key = select.dataset.pickerKey || 'id';
  const chosen = new Set([...select.selectedOptions].map((o) => o.value).filter((v) => v !== ''));
  for (const option of [...select.options]) if (option.value !== '' && !chosen.has(option.value)) option.remove();
  for (const item of body.results ?? []) {
    const value = String(item[key] ?? '');
    if (chosen.has(value)) continue;
    select.add(new Option(String(item.display ?? item.name ?? item.id), value));
  }
}

for (const select of document.querySelectorAll('select[data-picker]')) {
  const box = select.closest('.picker-large')?.querySelector('input[type="search"]');
  if (box) {
    // type-ahead: the search box asks the API as one types; its button is not needed
    box.closest('.picker-search')?.querySelector('button')?.setAttribute('hidden', '');
    let timer;
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => box.value.trim() && refill(select, { q: box.value.trim(), limit: '50' }), 200);
    });
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') event.preventDefault();
    });
  }
  const depends = select.dataset.pickerDepends ? Object.values(JSON.parse(select.dataset.pickerDepends)) : [];
  for (const field of depends) {
    const source = select.form?.elements.namedItem(field);
    if (source instanceof HTMLElement) source.addEventListener('change', () => refill(select, { limit: '100' }));
  }
}

// ---- generic references (a scope, an assigned object): the object picker follows the type select ----
for (const select of document.querySelectorAll('select[data-picker-types]')) {
  const paths = JSON.parse(select.dataset.pickerTypes);
  const typeSelect = select.form?.elements.namedItem(select.dataset.pickerTypeField);
  select.closest('.field')?.querySelector('.generic-refresh')?.setAttribute('hidden', '');
  if (!(typeSelect instanceof HTMLSelectElement)) continue;
  typeSelect.addEventListener('change', () => {
    for (const option of [...select.options]) if (option.value !== '') option.remove();
    const path = paths[typeSelect.value];
    if (!path) return select.removeAttribute('data-picker');
    select.dataset.picker = path;
    refill(select, { limit: '100' });
  });
}
