/**
 * What a new password must be. NetBox 4 checks a password its API or its forms set (Django's
 * validate_password with NetBox 4's default AUTH_PASSWORD_VALIDATORS: at least 12 characters, with a
 * digit, an upper-case and a lower-case letter); we add that it must not contain the username.
 * NetBox 3.4's API checks nothing, and its clients still set any password in that dialect
 * (docs/api-differences.md); pages and the 4.4 dialect are held to these rules.
 */
import type { RequestContext } from '../../core/context.js';

/** why `password` may not be the password of `username` (empty: it may) */
export function passwordProblems(password: string, username: string, minLength: number): string[] {
  const problems: string[] = [];
  if ([...password].length < minLength) problems.push(`The password must have at least ${minLength} characters.`);
  if (!/\d/.test(password)) problems.push('The password must have at least one digit.');
  if (!/\p{Lu}/u.test(password)) problems.push('The password must have at least one upper-case letter.');
  if (!/\p{Ll}/u.test(password)) problems.push('The password must have at least one lower-case letter.');
  if (username.length >= 3 && password.toLowerCase().includes(username.toLowerCase()))
    problems.push('The password must not contain the username.');
  return problems;
}

/** whether this write is held to the rules: a page's, or a NetBox 4 client's */
export const checksPasswords = (rc: RequestContext): boolean => !!rc.viaPage || rc.dialect === '4.4';
