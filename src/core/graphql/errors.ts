/**
 * A client's mistake in a list's arguments, as a GraphQL error naming the argument
 * (`extensions.argument`), where REST answers a 400 naming the parameter.
 */
import { GraphQLError } from 'graphql';
import { ApiError, Errors } from '../errors.js';

export function badInput(message: string, argument: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argument } });
}

/**
 * A bad filter value or ordering (a 400 in REST) as a GraphQL error naming the argument; `path`
 * is the filter object it came from, inside `filters` (`filters.OR.`).
 */
export function asGraphqlError(err: unknown, path = ''): unknown {
  if (
    !(err instanceof ApiError) ||
    (err.code !== Errors.invalidFilter.code && err.code !== Errors.invalidParameter.code)
  )
    return err;
  const [name, messages] = Object.entries(err.body as Record<string, string[]>)[0] ?? ['?', []];
  const argument = `${path}${name}`;
  return badInput(`Invalid value for argument "${argument}": ${messages?.[0] ?? 'invalid value.'}`, argument);
}
