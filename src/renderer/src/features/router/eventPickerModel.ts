import type { PublisherView, SuiteScope } from '../../../../shared/ipc/areas/router';

/** One event a rule can listen to, with what the picker searches and groups it by. */
export interface PickerEvent {
  id: string;
  apiName: string;
  scope: SuiteScope | null;
  publisherId: string;
  publisherName: string;
  /** Lower-cased name, scope and publisher: what a search looks in. */
  haystack: string;
}

/** A publisher's events shown, by scope (one group with scope null for events without one). */
export interface PickerGroup {
  publisherId: string;
  publisherName: string;
  scopes: { scope: SuiteScope | null; events: PickerEvent[] }[];
  /** Every event of the groups above, in order. */
  events: PickerEvent[];
}

/** Every event of every publisher, in the overview's order. */
export function pickerEvents(publishers: readonly PublisherView[]): PickerEvent[] {
  return publishers.flatMap((publisher) =>
    publisher.events.map((event) => ({
      id: event.id,
      apiName: event.apiName,
      scope: event.scope,
      publisherId: publisher.id,
      publisherName: publisher.name,
      haystack: `${event.apiName}\n${event.scope ?? ''}\n${publisher.name}`.toLowerCase(),
    })),
  );
}

/** The words of a search, lower-cased; every one must be found in an event's name, scope or publisher. */
export function searchWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The events to show, grouped by publisher and then scope, in the order given (scopes in the
 * order their first event comes): those matching every word of the search, and only the
 * selected ones when `selectedOnly`. One pass over the events.
 */
export function pickerGroups(
  events: readonly PickerEvent[],
  query: string,
  selected: ReadonlySet<string>,
  selectedOnly: boolean,
): PickerGroup[] {
  const words = searchWords(query);
  const groups = new Map<string, PickerGroup>();
  for (const event of events) {
    if (selectedOnly && !selected.has(event.id)) continue;
    if (!words.every((word) => event.haystack.includes(word))) continue;
    let group = groups.get(event.publisherId);
    if (!group) {
      group = {
        publisherId: event.publisherId,
        publisherName: event.publisherName,
        scopes: [],
        events: [],
      };
      groups.set(event.publisherId, group);
    }
    let scope = group.scopes.find((candidate) => candidate.scope === event.scope);
    if (!scope) {
      scope = { scope: event.scope, events: [] };
      group.scopes.push(scope);
    }
    scope.events.push(event);
    group.events.push(event);
  }
  return [...groups.values()];
}

/** A group checkbox's state over the events it shows. */
export function groupState(
  events: readonly PickerEvent[],
  selected: ReadonlySet<string>,
): 'all' | 'some' | 'none' {
  let count = 0;
  for (const event of events) if (selected.has(event.id)) count += 1;
  return count === 0 ? 'none' : count === events.length ? 'all' : 'some';
}

/**
 * The selection after a group checkbox is clicked: all its shown events selected, or (when they
 * all were) none of them; events not shown keep their state, and the order of the ids chosen
 * earlier is kept.
 */
export function toggleGroup(
  selectedIds: readonly string[],
  events: readonly PickerEvent[],
): string[] {
  const selected = new Set(selectedIds);
  if (groupState(events, selected) === 'all') {
    const shown = new Set(events.map((event) => event.id));
    return selectedIds.filter((id) => !shown.has(id));
  }
  return [...selectedIds, ...events.filter((e) => !selected.has(e.id)).map((e) => e.id)];
}
