/**
 * An interface's radio fields (NetBox 3.4 Interface.clean() and save()): role, channel, frequency
 * and width only on wireless types; a channel fixes its frequency and width (a different figure
 * is an error, a missing one is filled in from the channel's value, "5g-36-5180-20"); and the
 * WWN, stored as eight upper-case hex octets joined by colons.
 */
import { WIRELESS_INTERFACE_TYPES } from './choices.js';
import type { Row } from '../../core/model/types.js';

export const WWN = {
  regex: /^([0-9A-Fa-f]{2}[:.-]?){7}[0-9A-Fa-f]{2}$/,
  message: 'Enter a valid WWN (eight hexadecimal octets).',
};

/** the frequency or width a channel value carries */
const channelAttr = (channel: string, attr: 'frequency' | 'width') =>
  Number(channel.split('-')[attr === 'frequency' ? 2 : 3]);

export function validateRadio(data: Row): Record<string, string[]> {
  const wireless = WIRELESS_INTERFACE_TYPES.has(String(data.type));
  const channel = data.rf_channel ? String(data.rf_channel) : '';
  if (data.rf_role && !wireless) return { rf_role: ['Wireless role may be set only on wireless interfaces.'] };
  if (channel && !wireless) return { rf_channel: ['Channel may be set only on wireless interfaces.'] };
  for (const [field, attr, noun] of [
    ['rf_channel_frequency', 'frequency', 'Channel frequency'],
    ['rf_channel_width', 'width', 'Channel width'],
  ] as const) {
    if (data[field] == null || Number(data[field]) === 0) continue;
    if (!wireless) return { [field]: [`${noun} may be set only on wireless interfaces.`] };
    if (channel && Number(data[field]) !== channelAttr(channel, attr))
      return { [field]: [`Cannot specify custom ${attr} with channel selected.`] };
  }
  return {};
}

/** fills what the channel fixes, and writes the WWN in its stored form */
export function prepareRadio(data: Row): void {
  const channel = data.rf_channel ? String(data.rf_channel) : '';
  if (channel && data.rf_channel_frequency == null) data.rf_channel_frequency = channelAttr(channel, 'frequency');
  if (channel && data.rf_channel_width == null) data.rf_channel_width = channelAttr(channel, 'width');
  if (typeof data.wwn === 'string') {
    const hex = data.wwn.replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
    data.wwn = hex ? hex.match(/../g)!.join(':') : null;
  }
}
