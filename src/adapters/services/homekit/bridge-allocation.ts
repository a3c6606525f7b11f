/**
 * Which bridge each accessory lives on. A HomeKit bridge serves at most 150 accessories
 * (HAP specification: "an accessory object ... bridge shall not expose more than 150"),
 * the bridge itself included, so larger homes are split over several bridges.
 *
 * An accessory that moves to another bridge is a new accessory to the Home app (its
 * rooms, scenes and automations are lost), so assignments are sticky: an accessory keeps
 * the bridge it was given, across restarts (the caller persists `assignments()`), and new
 * accessories fill the lowest bridge with room.
 */

/** Bridged accessories per bridge: 150 minus the bridge accessory itself. */
export const MAX_BRIDGED_ACCESSORIES = 149;

export class BridgeAllocation {
  private readonly bridgeOf = new Map<string, number>();
  private readonly counts: number[] = [];

  /**
   * @param capacity bridged accessories per bridge (1..149).
   * @param remembered assignments from an earlier run; kept while they fit.
   */
  constructor(
    private readonly capacity: number,
    private readonly remembered: Record<string, number> = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_BRIDGED_ACCESSORIES) {
      throw new RangeError(`Bridge capacity must be 1..${MAX_BRIDGED_ACCESSORIES}, got ${capacity}`);
    }
  }

  /** The bridge `id` is on; assigns one (its remembered bridge when it has room) if new. */
  assign(id: string): number {
    const known = this.bridgeOf.get(id);
    if (known !== undefined) return known;
    const previous = this.remembered[id];
    const bridge =
      previous !== undefined && Number.isInteger(previous) && previous >= 0 && this.countOf(previous) < this.capacity
        ? previous
        : this.firstWithRoom();
    this.bridgeOf.set(id, bridge);
    this.counts[bridge] = this.countOf(bridge) + 1;
    return bridge;
  }

  /** Frees the slot of an accessory that left; it keeps its remembered bridge should it return. */
  release(id: string): void {
    const bridge = this.bridgeOf.get(id);
    if (bridge === undefined) return;
    this.bridgeOf.delete(id);
    this.counts[bridge] = this.countOf(bridge) - 1;
    this.remembered[id] = bridge;
  }

  bridgeFor(id: string): number | undefined {
    return this.bridgeOf.get(id);
  }

  /** Accessories on each bridge, index = bridge number; bridges past the last used one are left out. */
  countsPerBridge(): number[] {
    const last = this.counts.reduce((found, count, index) => (count > 0 ? index : found), -1);
    return Array.from({ length: last + 1 }, (_, index) => this.countOf(index));
  }

  /** What to persist: every current assignment, plus remembered ones of accessories now absent. */
  assignments(): Record<string, number> {
    return { ...this.remembered, ...Object.fromEntries(this.bridgeOf) };
  }

  private countOf(bridge: number): number {
    return this.counts[bridge] ?? 0;
  }

  private firstWithRoom(): number {
    for (let bridge = 0; ; bridge++) {
      if (this.countOf(bridge) < this.capacity) return bridge;
    }
  }
}
