import { AcceptInvite } from "./accept-invite.js";
import { ChangePassword } from "./change-password.js";
import { CreateCompartment } from "./create-compartment.js";
import { CreateFreezer } from "./create-freezer.js";
import { CreateHousehold } from "./create-household.js";
import { CreateInvite } from "./create-invite.js";
import { DeleteCompartment } from "./delete-compartment.js";
import { DeleteCurrentUser } from "./delete-current-user.js";
import { DeleteFreezer } from "./delete-freezer.js";
import { DeleteHousehold } from "./delete-household.js";
import { GetCompartment } from "./get-compartment.js";
import { GetCurrentUser } from "./get-current-user.js";
import { GetFreezer } from "./get-freezer.js";
import { GetHousehold } from "./get-household.js";
import { HouseholdAccess } from "./household-access.js";
import type { AuthSettings, InventoryPorts } from "./inventory-ports.js";
import { LeaveHousehold } from "./leave-household.js";
import { ListCompartments } from "./list-compartments.js";
import { ListFreezers } from "./list-freezers.js";
import { ListHouseholds } from "./list-households.js";
import { ListInvites } from "./list-invites.js";
import { Login } from "./login.js";
import { Logout } from "./logout.js";
import { LogoutEverywhere } from "./logout-everywhere.js";
import { RefreshTokens } from "./refresh-tokens.js";
import { Register } from "./register.js";
import { RemoveMember } from "./remove-member.js";
import { RevokeInvite } from "./revoke-invite.js";
import { TransferOwnership } from "./transfer-ownership.js";
import { UpdateCompartment } from "./update-compartment.js";
import { UpdateCurrentUser } from "./update-current-user.js";
import { UpdateFreezer } from "./update-freezer.js";
import { UpdateHousehold } from "./update-household.js";

/** Every account/household use case, built over one set of ports. */
export function createInventoryUseCases(ports: InventoryPorts, settings: AuthSettings) {
  const access = new HouseholdAccess(ports.households);
  return {
    access,
    register: new Register(ports, settings),
    login: new Login(ports, settings),
    refreshTokens: new RefreshTokens(ports, settings),
    logout: new Logout(ports),
    getCurrentUser: new GetCurrentUser(ports),
    updateCurrentUser: new UpdateCurrentUser(ports),
    deleteCurrentUser: new DeleteCurrentUser(ports),
    createHousehold: new CreateHousehold(ports),
    listHouseholds: new ListHouseholds(ports),
    getHousehold: new GetHousehold(ports, access),
    updateHousehold: new UpdateHousehold(ports, access),
    deleteHousehold: new DeleteHousehold(ports, access),
    removeMember: new RemoveMember(ports, access),
    leaveHousehold: new LeaveHousehold(ports, access),
    transferOwnership: new TransferOwnership(ports, access),
    createInvite: new CreateInvite(ports, access),
    listInvites: new ListInvites(ports, access),
    revokeInvite: new RevokeInvite(ports, access),
    acceptInvite: new AcceptInvite(ports),
    createFreezer: new CreateFreezer(ports, access),
    listFreezers: new ListFreezers(ports, access),
    getFreezer: new GetFreezer(ports, access),
    updateFreezer: new UpdateFreezer(ports, access),
    deleteFreezer: new DeleteFreezer(ports, access),
    createCompartment: new CreateCompartment(ports, access),
    listCompartments: new ListCompartments(ports, access),
    getCompartment: new GetCompartment(ports, access),
    updateCompartment: new UpdateCompartment(ports, access),
    deleteCompartment: new DeleteCompartment(ports, access),
    logoutEverywhere: new LogoutEverywhere(ports),
    changePassword: new ChangePassword(ports),
  };
}

export type InventoryUseCases = ReturnType<typeof createInventoryUseCases>;
