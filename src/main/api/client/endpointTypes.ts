/**
 * The argument and result types of each endpoint, derived from the table in endpoints.ts: path
 * parameters from the route template, the query and body from the declared phantom types, the
 * result from the reply shape.
 */
import type { z } from 'zod';
import type { FieldOptions } from '@portaldesk/portal-api/domain/fieldOption';
import type { PageInfo } from '@portaldesk/portal-api/domain/pageInfo';
import type { SkippedItem } from '@portaldesk/portal-api/domain/parseEach';
import type { COMMENT_SEGMENT_PARAM, EndpointName, Endpoints, ReplySpec } from './endpoints';

type ParamNames<R extends string> = R extends `${string}{${infer P}}${infer Rest}`
  ? P | ParamNames<Rest>
  : never;

/** `{portal_id: string, entity_id: string, ...}` for the `{...}` segments of a route. */
export type PathArgs<R extends string> = {
  [K in Exclude<ParamNames<R>, typeof COMMENT_SEGMENT_PARAM>]: string;
};

type QueryOf<E> = E extends { readonly __query?: infer Q } ? NonNullable<Q> : never;
type BodyOf<E> = E extends { readonly __body?: infer B } ? Exclude<B, undefined> : never;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "no query" adds nothing
type QueryArg<Q> = {} extends Q ? { query?: Q } : { query: Q };
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "no body" adds nothing
type BodyArg<B> = [B] extends [never] ? {} : { body: B };

export type EndpointArgs<N extends EndpointName> = PathArgs<Endpoints[N]['route']> &
  QueryArg<QueryOf<Endpoints[N]>> &
  BodyArg<BodyOf<Endpoints[N]>>;

/** Items of a reply, with the ones that did not match their schema left out and described. */
export interface ItemList<T> {
  items: T[];
  skipped: SkippedItem[];
  /** How many items the server sent, the skipped ones included. */
  received: number;
}

/** One page of a list: its items and `page_info` (`page_count` is the TOTAL of records). */
export interface ListPage<T> extends ItemList<T> {
  pageInfo: PageInfo;
}

/** A field's option lists; `pageInfo` only on the (paged) read. */
export interface OptionsReply {
  options: FieldOptions;
  skipped: SkippedItem[];
  received: number;
  pageInfo: PageInfo | null;
  /**
   * The roles the portal offers, when the reply names them (`available_roles` beside a user
   * field's options; the spec shows a role only as `{id}`). Empty otherwise.
   */
  availableRoles: { id: string; name: string | null }[];
}

export type ReplyResult<Rep extends ReplySpec> = Rep extends { kind: 'none' }
  ? void
  : Rep extends { kind: 'one' | 'object'; schema: infer S extends z.ZodType }
    ? z.output<S>
    : Rep extends { kind: 'list'; schema: infer S extends z.ZodType }
      ? ListPage<z.output<S>>
      : Rep extends { kind: 'items' | 'bareList'; schema: infer S extends z.ZodType }
        ? ItemList<z.output<S>>
        : Rep extends { kind: 'count' }
          ? number
          : Rep extends { kind: 'options' }
            ? OptionsReply
            : never;

export type EndpointResult<N extends EndpointName> = ReplyResult<Endpoints[N]['reply']>;
