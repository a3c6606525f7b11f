export interface Freezer {
  id: string;
  householdId: string;
  name: string;
  description: string | null;
  /** Display order within the household; ties are broken by creation time. */
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface Compartment {
  id: string;
  freezerId: string;
  name: string;
  /** Display order within the freezer; ties are broken by name. */
  position: number;
  createdAt: Date;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders freezers by position, then creation time, then id: the order every listing uses,
 * the same in memory and in SQL.
 */
export function compareFreezers(a: Freezer, b: Freezer): number {
  return a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime() || compareText(a.id, b.id);
}

/**
 * Orders compartments by position, then name ignoring case (as item names sort), then
 * exactly, then id: the order every listing uses, the same in memory and in SQL.
 */
export function compareCompartments(a: Compartment, b: Compartment): number {
  return (
    a.position - b.position ||
    compareText(a.name.toLowerCase(), b.name.toLowerCase()) ||
    compareText(a.name, b.name) ||
    compareText(a.id, b.id)
  );
}
