import type { Express } from "express";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import type { MemoryInventoryStore } from "../../../../src/adapters/persistence/memory-inventory-store.js";
import { loadConfig } from "../../../../src/composition/config.js";
import { buildMemoryInventoryApi } from "../../../support/memory-inventory-api.js";

export type Caller = "anonymous" | "outsider" | "member" | "owner";
export const CALLERS: Caller[] = ["anonymous", "outsider", "member", "owner"];

export const PASSWORD = "correct horse battery";

/**
 * A household with an owner, a member, a freezer with a compartment and an open invite;
 * an outsider who owns nothing; and a second household (owned by "stranger") with its
 * own freezer, compartment and invite, whose ids must be "not found" in the first.
 */
export interface InventoryWorld {
  app: Express;
  store: MemoryInventoryStore;
  logger: MemoryLogger;
  users: Record<
    "owner" | "member" | "outsider" | "stranger",
    { id: string; email: string; accessToken: string; refreshToken: string }
  >;
  householdId: string;
  freezerId: string;
  compartmentId: string;
  inviteId: string;
  inviteCode: string;
  other: { householdId: string; freezerId: string; compartmentId: string; inviteId: string; inviteCode: string };
  /** Room for other areas' seeds (the items area puts item ids here). */
  extra: Record<string, string>;
  /** `Authorization` header for a caller (none for anonymous); "stranger" owns the other household. */
  auth(caller: Caller | "stranger"): Record<string, string>;
}

/** Seeds other areas add to every world (e.g. an item in the freezer). */
export const worldSeeders: ((world: InventoryWorld) => Promise<void>)[] = [];

export interface WorldOptions {
  env?: Record<string, string>;
}

export async function buildWorld(options: WorldOptions = {}): Promise<InventoryWorld> {
  const logger = new MemoryLogger();
  const config = loadConfig({
    JWT_SECRET: "http-contract-test-secret-0123456789abcdef",
    RATE_LIMIT_PER_MINUTE: "1000",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    ...options.env,
  });
  // Real time, but strictly increasing, so records created in one millisecond still order by creation.
  let last = 0;
  const clock = {
    now: () => {
      last = Math.max(last + 1, Date.now());
      return new Date(last);
    },
  };
  const api = await buildMemoryInventoryApi({ config, logger, clock });
  const { useCases } = api;
  const register = async (name: string) => {
    const session = await useCases.register.execute({ email: `${name}@example.com`, password: PASSWORD, name });
    return {
      id: session.user.id,
      email: session.user.email,
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
    };
  };
  const users = {
    owner: await register("owner"),
    member: await register("member"),
    outsider: await register("outsider"),
    stranger: await register("stranger"),
  };
  const household = await useCases.createHousehold.execute({ userId: users.owner.id, name: "Home" });
  const invite = await useCases.createInvite.execute({ userId: users.owner.id, householdId: household.id });
  const joining = await useCases.createInvite.execute({ userId: users.owner.id, householdId: household.id });
  await useCases.acceptInvite.execute({ userId: users.member.id, code: joining.code });
  const freezer = await useCases.createFreezer.execute({
    userId: users.owner.id,
    householdId: household.id,
    name: "Chest",
  });
  const compartment = await useCases.createCompartment.execute({
    userId: users.owner.id,
    householdId: household.id,
    freezerId: freezer.id,
    name: "Top",
  });

  const otherHousehold = await useCases.createHousehold.execute({ userId: users.stranger.id, name: "Elsewhere" });
  const otherInvite = await useCases.createInvite.execute({
    userId: users.stranger.id,
    householdId: otherHousehold.id,
  });
  const otherFreezer = await useCases.createFreezer.execute({
    userId: users.stranger.id,
    householdId: otherHousehold.id,
    name: "Theirs",
  });
  const otherCompartment = await useCases.createCompartment.execute({
    userId: users.stranger.id,
    householdId: otherHousehold.id,
    freezerId: otherFreezer.id,
    name: "Theirs",
  });

  const world: InventoryWorld = {
    app: api.app,
    store: api.store,
    logger,
    users,
    householdId: household.id,
    freezerId: freezer.id,
    compartmentId: compartment.id,
    inviteId: invite.id,
    inviteCode: invite.code,
    other: {
      householdId: otherHousehold.id,
      freezerId: otherFreezer.id,
      compartmentId: otherCompartment.id,
      inviteId: otherInvite.id,
      inviteCode: otherInvite.code,
    },
    extra: {},
    auth: (caller): Record<string, string> =>
      caller === "anonymous" ? {} : { Authorization: `Bearer ${users[caller].accessToken}` },
  };
  for (const seed of worldSeeders) await seed(world);
  return world;
}

/** Every stored row, for "the data is unchanged" checks. */
export function snapshot(store: MemoryInventoryStore): string {
  const maps = [
    store.users,
    store.refreshTokens,
    store.households,
    store.memberships,
    store.invites,
    store.freezers,
    store.compartments,
  ];
  return JSON.stringify(maps.map((map) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1))));
}
