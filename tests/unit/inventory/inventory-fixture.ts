import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { InventoryPorts } from "../../../src/application/inventory/inventory-ports.js";
import { createInventoryUseCases } from "../../../src/application/inventory/inventory-use-cases.js";
import { MemoryCategoryRepository } from "../../../src/adapters/persistence/memory-category-repository.js";
import { MemoryFreezerRepository } from "../../../src/adapters/persistence/memory-freezer-repository.js";
import { MemoryHouseholdRepository } from "../../../src/adapters/persistence/memory-household-repository.js";
import { MemoryInventoryStore } from "../../../src/adapters/persistence/memory-inventory-store.js";
import { MemoryInviteRepository } from "../../../src/adapters/persistence/memory-invite-repository.js";
import { MemoryRefreshTokenRepository } from "../../../src/adapters/persistence/memory-refresh-token-repository.js";
import { MemoryUserRepository } from "../../../src/adapters/persistence/memory-user-repository.js";
import { CryptoSecretGenerator } from "../../../src/adapters/security/crypto-secret-generator.js";
import { JwtTokenService } from "../../../src/adapters/security/jwt-token-service.js";
import type { PasswordHasher } from "../../../src/ports/password-hasher.js";

/** A transparent hasher that counts verifications, so tests can see the dummy check on unknown emails. */
export class CountingHasher implements PasswordHasher {
  verifications = 0;
  async hash(password: string): Promise<string> {
    return `plain:${password}`;
  }
  async verify(password: string, passwordHash: string): Promise<boolean> {
    this.verifications++;
    return passwordHash === `plain:${password}`;
  }
}

export class FakeClock {
  constructor(public current = new Date("2026-03-01T12:00:00.000Z")) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Use cases over fresh in-memory adapters with a fake clock. */
export function inventoryFixture(
  options: { refreshTokenTtlSeconds?: number; refreshReuseIntervalSeconds?: number } = {},
) {
  const store = new MemoryInventoryStore();
  const clock = new FakeClock();
  const passwords = new CountingHasher();
  const ports: InventoryPorts = {
    users: new MemoryUserRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    households: new MemoryHouseholdRepository(store),
    invites: new MemoryInviteRepository(store),
    freezers: new MemoryFreezerRepository(store),
    categories: new MemoryCategoryRepository(store),
    passwords,
    tokens: new JwtTokenService("unit-test-secret-unit-test-secret-1234", 900),
    secrets: new CryptoSecretGenerator(),
    ids: { next: () => createId() },
    clock,
  };
  const useCases = createInventoryUseCases(ports, {
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 3600,
    ...(options.refreshReuseIntervalSeconds === undefined
      ? {}
      : { refreshReuseIntervalSeconds: options.refreshReuseIntervalSeconds }),
  });
  let counter = 0;

  /** Registers a user; each call advances the clock a little so joinedAt/createdAt orders are stable. */
  async function registerUser(name = "User") {
    counter++;
    clock.advance(1000);
    return useCases.register.execute({ email: `user${counter}@example.com`, password: "password123", name });
  }

  /** An owner with a household, plus a member and an outsider. */
  async function householdWithMember() {
    const owner = await registerUser("Owner");
    const member = await registerUser("Member");
    const outsider = await registerUser("Outsider");
    const household = await useCases.createHousehold.execute({ userId: owner.user.id, name: "Home" });
    const invite = await useCases.createInvite.execute({ userId: owner.user.id, householdId: household.id });
    clock.advance(1000);
    await useCases.acceptInvite.execute({ userId: member.user.id, code: invite.code });
    return { owner: owner.user, member: member.user, outsider: outsider.user, household };
  }

  return { store, clock, passwords, ports, useCases, registerUser, householdWithMember };
}

/** Awaits a promise that must reject with an error of the given class and code. */
export async function expectRejection(promise: Promise<unknown>, code: string): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect((error as { code?: string }).code, String(error)).to.equal(code);
    return error as Error;
  }
  expect.fail(`expected a rejection with code ${code}`);
}
