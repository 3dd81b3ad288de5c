/** NetBox 3.4 WirelessAuthenticationBase: what wireless LANs and links share. */
import type { FieldDef } from '../../core/model/types.js';
import { WirelessAuthCipher, WirelessAuthType } from './choices.js';

export const authFields = (): Record<string, FieldDef> => ({
  auth_type: { kind: 'choice', choices: WirelessAuthType, blank: true, label: 'authentication type' },
  auth_cipher: { kind: 'choice', choices: WirelessAuthCipher, blank: true, label: 'authentication cipher' },
  auth_psk: { kind: 'string', maxLength: 64, label: 'pre-shared key' },
});
