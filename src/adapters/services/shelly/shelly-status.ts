/**
 * Shelly Gen 2+ component status shapes (Switch.GetStatus, Cover.GetStatus and the same
 * objects inside NotifyStatus / NotifyFullStatus events), validated here at the boundary.
 */
import { z } from "zod";
import type { CoverState, CoverStatus, SwitchStatus } from "../../../ports/relay-service.js";

const number = z.number().nullable().optional();

export const switchStatusSchema = z.looseObject({
  id: z.number().int().optional(),
  source: z.string().optional(),
  output: z.boolean().optional(),
  apower: number,
  voltage: number,
  current: number,
  temperature: z.looseObject({ tC: number }).nullable().optional(),
});

export const coverStatusSchema = z.looseObject({
  id: z.number().int().optional(),
  source: z.string().optional(),
  state: z.enum(["open", "closed", "opening", "closing", "stopped", "calibrating"]).optional(),
  apower: number,
  current_pos: number,
  target_pos: number,
});

export type ShellySwitchStatus = z.output<typeof switchStatusSchema>;
export type ShellyCoverStatus = z.output<typeof coverStatusSchema>;

/** Merges a (possibly partial) switch status over what was known. Null when `on` is still unknown. */
export function mergeSwitch(
  device: string,
  channel: number,
  known: SwitchStatus | null,
  update: ShellySwitchStatus,
  now: Date,
): SwitchStatus | null {
  const on = update.output ?? known?.on;
  if (on === undefined) return null;
  const merged: SwitchStatus = { ...(known ?? {}), device, channel, on, updatedAt: now };
  if (typeof update.apower === "number") merged.powerW = update.apower;
  if (typeof update.voltage === "number") merged.voltageV = update.voltage;
  if (typeof update.current === "number") merged.currentA = update.current;
  if (typeof update.temperature?.tC === "number") merged.temperatureC = update.temperature.tC;
  if (update.source !== undefined) merged.source = update.source;
  return merged;
}

export function mergeCover(
  device: string,
  channel: number,
  known: CoverStatus | null,
  update: ShellyCoverStatus,
  now: Date,
): CoverStatus | null {
  const state: CoverState | undefined = update.state ?? known?.state;
  if (state === undefined) return null;
  const merged: CoverStatus = {
    ...(known ?? { position: null }),
    device,
    channel,
    state,
    updatedAt: now,
  };
  if (update.current_pos !== undefined) merged.position = update.current_pos;
  if (update.target_pos !== undefined) merged.targetPosition = update.target_pos;
  if (typeof update.apower === "number") merged.powerW = update.apower;
  if (update.source !== undefined) merged.source = update.source;
  return merged;
}

/** `switch:0` → { kind: "switch", channel: 0 }; other components → null. */
export function componentKey(key: string): { kind: "switch" | "cover"; channel: number } | null {
  const match = /^(switch|cover):(\d+)$/.exec(key);
  return match ? { kind: match[1] as "switch" | "cover", channel: Number(match[2]) } : null;
}
