import { ApiError, api, type FreezerDetail, type Household, type User } from "./api.js";
import { forgetAll, getState, recall, remember, setState } from "./store.js";

/** Marks the app offline when a request could not reach the server at all. */
export function noteFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 0) setState({ online: false });
}

/** Loads the user's households and picks one (the last used, else the first). */
export async function loadHouseholds(): Promise<Household[]> {
  try {
    const households = await api.households();
    remember("households", households);
    const wanted = getState().householdId ?? recall<string>("householdId");
    const householdId = households.find((household) => household.id === wanted)?.id ?? households[0]?.id ?? null;
    setState({ households, householdId });
    if (householdId) remember("householdId", householdId);
    await loadFreezers();
    return households;
  } catch (error) {
    noteFailure(error);
    throw error;
  }
}

export async function selectHousehold(householdId: string): Promise<void> {
  remember("householdId", householdId);
  setState({ householdId, freezers: recall<FreezerDetail[]>(`freezers.${householdId}`) ?? [] });
  await loadFreezers();
}

/** Freezers with their compartments, which the item screens use to name places. */
export async function loadFreezers(): Promise<void> {
  const householdId = getState().householdId;
  if (!householdId) {
    setState({ freezers: [] });
    return;
  }
  try {
    const freezers = await api.freezers(householdId);
    const details = await Promise.all(freezers.map((freezer) => api.freezer(householdId, freezer.id)));
    remember(`freezers.${householdId}`, details);
    if (getState().householdId === householdId) setState({ freezers: details });
  } catch (error) {
    noteFailure(error);
    throw error;
  }
}

/** After a sign-in: the user, their households, and an invite they opened before signing in. */
export async function signedIn(user: User): Promise<void> {
  remember("user", user);
  setState({ user });
  await loadHouseholds().catch(() => undefined);
}

/** Starts the app offline from what the last session stored. */
export function startOffline(): void {
  const user = recall<User>("user");
  const households = recall<Household[]>("households") ?? [];
  const householdId = recall<string>("householdId") ?? households[0]?.id ?? null;
  setState({
    online: false,
    user,
    households,
    householdId,
    freezers: householdId ? (recall<FreezerDetail[]>(`freezers.${householdId}`) ?? []) : [],
  });
}

export function signedOut(): void {
  forgetAll();
  setState({ user: null, households: [], householdId: null, freezers: [] });
}
