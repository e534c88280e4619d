import type { Route } from '../http/types';

export function commentRoutes(commentSegment: string): Route[] {
  void commentSegment;
  return [];
}
