/** Builders of the wireless app: LAN groups and wireless LANs. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named } from './make.js';

export const makeWirelessLanGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/wireless/wireless-lan-groups/', { ...named('wgroup'), ...extra });
export const makeWirelessLan = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/wireless/wireless-lans/', { ssid: 'corp', ...extra });
