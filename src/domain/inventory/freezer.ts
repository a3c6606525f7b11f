export interface Freezer {
  id: string;
  householdId: string;
  name: string;
  description: string | null;
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

/** Orders compartments by position, then name, the order every listing uses. */
export function compareCompartments(a: Compartment, b: Compartment): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.name < b.name) return -1;
  if (a.name > b.name) return 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
