import { AcceptInvite } from "./invites/accept-invite.js";
import { ChangePassword } from "./accounts/change-password.js";
import { CreateCompartment } from "./freezers/create-compartment.js";
import { CreateFreezer } from "./freezers/create-freezer.js";
import { CreateHousehold } from "./households/create-household.js";
import { CreateInvite } from "./invites/create-invite.js";
import { DeleteCompartment } from "./freezers/delete-compartment.js";
import { DeleteCurrentUser } from "./accounts/delete-current-user.js";
import { DeleteFreezer } from "./freezers/delete-freezer.js";
import { DeleteHousehold } from "./households/delete-household.js";
import { GetCompartment } from "./freezers/get-compartment.js";
import { GetCurrentUser } from "./accounts/get-current-user.js";
import { GetFreezer } from "./freezers/get-freezer.js";
import { GetHousehold } from "./households/get-household.js";
import { HouseholdAccess } from "./household-access.js";
import type { AuthSettings, InventoryPorts } from "./inventory-ports.js";
import { LeaveHousehold } from "./households/leave-household.js";
import { ListCompartments } from "./freezers/list-compartments.js";
import { ListFreezers } from "./freezers/list-freezers.js";
import { ListHouseholds } from "./households/list-households.js";
import { ListInvites } from "./invites/list-invites.js";
import { ListAccounts, SetInstallationRole } from "./accounts/installation-admins.js";
import { Login } from "./accounts/login.js";
import { Logout } from "./accounts/logout.js";
import { LogoutEverywhere } from "./accounts/logout-everywhere.js";
import { RefreshTokens } from "./accounts/refresh-tokens.js";
import { Register } from "./accounts/register.js";
import { RemoveMember } from "./households/remove-member.js";
import { RevokeInvite } from "./invites/revoke-invite.js";
import { TransferOwnership } from "./households/transfer-ownership.js";
import { UpdateCompartment } from "./freezers/update-compartment.js";
import { UpdateCurrentUser } from "./accounts/update-current-user.js";
import { UpdateFreezer } from "./freezers/update-freezer.js";
import { UpdateHousehold } from "./households/update-household.js";
import { CreateCategory } from "./categories/create-category.js";
import { DeleteCategory } from "./categories/delete-category.js";
import { ListCategories } from "./categories/list-categories.js";
import { UpdateCategory } from "./categories/update-category.js";

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
    listAccounts: new ListAccounts(ports),
    setInstallationRole: new SetInstallationRole(ports),
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
    listCategories: new ListCategories(ports, access),
    createCategory: new CreateCategory(ports, access),
    updateCategory: new UpdateCategory(ports, access),
    deleteCategory: new DeleteCategory(ports, access),
    logoutEverywhere: new LogoutEverywhere(ports),
    changePassword: new ChangePassword(ports),
  };
}

export type InventoryUseCases = ReturnType<typeof createInventoryUseCases>;
