/** How pages name apps and models (NetBox's navigation names: "DCIM", "Sites"). */

const APP_LABELS: Record<string, string> = { dcim: 'DCIM', ipam: 'IPAM', vpn: 'VPN' };

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function appLabel(app: string): string {
  return APP_LABELS[app] ?? capitalize(app);
}
