/**
 * The signed-in account's installation role, which decides whether the House entry is shown.
 * The server checks the role on every House request; this only keeps members from seeing a
 * section they would be refused. Part of the first load, so it stays small: the House pages
 * themselves load only for admins (house/loader.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { getState, subscribe } from "../store.js";

export type InstallationRole = "admin" | "member";

let role: { userId: string; role: InstallationRole } | null = null;
let asking: string | null = null;
const listeners = new Set<() => void>();

function tell(): void {
  for (const listener of listeners) listener();
}

/** Sets the role of the signed-in account (a House request refused with ADMIN_REQUIRED: "member"). */
export function setInstallationRole(next: InstallationRole): void {
  const userId = getState().user?.id;
  if (!userId) return;
  role = { userId, role: next };
  tell();
}

/** Asks the server for the role of whoever is signed in now (after sign-in, after a reload). */
function follow(): void {
  const { user, online } = getState();
  if (!user) {
    if (role) {
      role = null;
      tell();
    }
    return;
  }
  if (role?.userId === user.id || asking === user.id || !online) return;
  asking = user.id;
  const userId = user.id;
  api
    .me()
    .then((me) => {
      if (getState().user?.id !== userId) return;
      role = { userId, role: me.role === "admin" ? "admin" : "member" };
      tell();
    })
    .catch(() => undefined)
    .finally(() => {
      if (asking === userId) asking = null;
    });
}

subscribe(follow);

/** The signed-in account's role; null while unknown (not asked yet, offline). */
export function useInstallationRole(): InstallationRole | null {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((version) => version + 1);
    listeners.add(listener);
    follow();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  const userId = getState().user?.id;
  return role && role.userId === userId ? role.role : null;
}
