import { apiErrors } from './apiError';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteMatch<R> {
  route: R;
  params: Record<string, string>;
}

interface Node<R> {
  literal: Map<string, Node<R>>;
  param?: { name: string; node: Node<R> };
  routes: Map<HttpMethod, R>;
}

const newNode = <R>(): Node<R> => ({ literal: new Map(), routes: new Map() });

/**
 * Matches paths like `/api/v3/portal/{portal_id}/bin` segment by segment. A literal segment beats
 * a parameter, which is how `GET .../entities/20` (the record count, a fixed numeric segment in
 * the spec) wins over `GET .../entities/{entity_id}`. Segments are matched percent-decoded, so the
 * comment segment with a space matches however the client encoded it.
 */
export class Router<R extends { method: HttpMethod; template: string }> {
  private readonly root: Node<R> = newNode();
  readonly routes: R[] = [];

  add(route: R): void {
    let node = this.root;
    for (const segment of splitPath(route.template)) {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        const name = param[1] as string;
        if (node.param && node.param.name !== name) {
          throw new Error(`${route.template}: {${name}} clashes with {${node.param.name}}.`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) {
      throw new Error(`Route ${route.method} ${route.template} is registered twice.`);
    }
    node.routes.set(route.method, route);
    this.routes.push(route);
  }

  /**
   * The route for a request. Unknown path → URL_RULE_NOT_CONFIGURED; a known path without this
   * method → INVALID_METHOD. A literal match is preferred, but only when it has the method, so
   * `PATCH .../entities/20` still reaches `PATCH .../entities/{entity_id}`.
   */
  match(method: string, path: string): RouteMatch<R> {
    // The v3 API has no trailing slashes: `/portals/` is not `/portals`.
    const segments = path.length > 1 && path.endsWith('/') ? null : splitPath(path);
    const allowed = new Set<HttpMethod>();
    for (const found of segments ? this.candidates(this.root, segments, 0, {}) : []) {
      const route = found.node.routes.get(method as HttpMethod);
      if (route) return { route, params: found.params };
      for (const known of found.node.routes.keys()) allowed.add(known);
    }
    if (allowed.size === 0) throw apiErrors.urlRuleNotConfigured(path);
    throw apiErrors.invalidMethod(method, path, [...allowed]);
  }

  /** Every node matching the path, literal segments first. */
  private *candidates(
    node: Node<R>,
    segments: string[],
    index: number,
    params: Record<string, string>,
  ): Generator<{ node: Node<R>; params: Record<string, string> }> {
    if (index === segments.length) {
      if (node.routes.size > 0) yield { node, params };
      return;
    }
    const segment = segments[index] as string;
    const literal = node.literal.get(segment);
    if (literal) yield* this.candidates(literal, segments, index + 1, params);
    if (node.param && segment !== '') {
      yield* this.candidates(node.param.node, segments, index + 1, {
        ...params,
        [node.param.name]: segment,
      });
    }
  }
}

function splitPath(path: string): string[] {
  return path
    .replace(/^\//, '')
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}
