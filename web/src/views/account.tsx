import { useState } from "preact/hooks";
import { api } from "../api.js";
import {
  ActionForm,
  ConfirmButton,
  EmailField,
  ErrorText,
  PasswordField,
  PersonNameField,
  useAction,
} from "../components.js";
import { signedOut } from "../data.js";
import { t } from "../i18n/index.js";
import { remember, setState, useAppState } from "../store.js";

/** The signed-in user: name, email, password, signing out, deleting the account. */
export function AccountView() {
  const { user, online, pending } = useAppState();
  const [name, setName] = useState(user?.name ?? "");
  const [email, setEmail] = useState(user?.email ?? "");
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const profile = useAction(async () => {
    const updated = await api.updateMe({
      ...(name !== user?.name ? { name } : {}),
      ...(email !== user?.email ? { email } : {}),
    });
    remember("user", updated);
    setState({ user: updated });
    setSaved(t("account.saved"));
  });
  const password = useAction(async () => {
    await api.changePassword({ currentPassword, newPassword });
    setCurrentPassword("");
    setNewPassword("");
    setSaved(t("account.passwordChanged"));
  });
  const logout = useAction(async () => {
    await api.logout();
    signedOut();
    // Offline: signed out here; the sign-in screen says the server still has to hear of it.
    if (api.signOutPending()) setState({ notice: t("account.signedOutOffline") });
  });
  const logoutEverywhere = useAction(async () => {
    await api.logoutEverywhere();
    signedOut();
  });
  const remove = useAction(async () => {
    await api.deleteMe();
    await api.logout().catch(() => undefined);
    signedOut();
  });
  return (
    <main id="main">
      <h1>{t("account.title")}</h1>
      {saved ? (
        <p class="notice" role="status">
          {saved}
        </p>
      ) : null}
      <section aria-labelledby="profile-title">
        <h2 id="profile-title">{t("account.profile")}</h2>
        <ActionForm action={profile} disabled={!online} overrides={{ 409: "auth.register.taken" }}>
          <PersonNameField id="account-name" value={name} onValue={setName} />
          <EmailField id="account-email" value={email} onValue={setEmail} />
          <button type="submit" class="primary">
            {t("action.save")}
          </button>
        </ActionForm>
      </section>
      <section aria-labelledby="password-title">
        <h2 id="password-title">{t("account.password")}</h2>
        <ActionForm action={password} disabled={!online}>
          <PasswordField
            id="account-current-password"
            label={t("account.currentPassword")}
            isNew={false}
            value={currentPassword}
            onValue={setCurrentPassword}
          />
          <PasswordField
            id="account-new-password"
            label={t("account.newPassword")}
            isNew
            value={newPassword}
            onValue={setNewPassword}
          />
          <button type="submit">{t("account.changePassword")}</button>
        </ActionForm>
      </section>
      <section aria-labelledby="signout-title">
        <h2 id="signout-title">{t("account.signOutTitle")}</h2>
        <div class="actions">
          {pending.length > 0 ? (
            // Signing out forgets this device's queue of unsent changes: not without asking.
            <ConfirmButton
              label={t("account.signOut")}
              question={t("account.signOutDiscards", { count: pending.length })}
              confirmLabel={t("account.signOutAnyway")}
              disabled={logout.busy}
              onConfirm={() => logout.run()}
            />
          ) : (
            <button type="button" disabled={logout.busy} onClick={() => void logout.run()}>
              {t("account.signOut")}
            </button>
          )}
          <button type="button" disabled={!online || logoutEverywhere.busy} onClick={() => void logoutEverywhere.run()}>
            {t("account.signOutEverywhere")}
          </button>
        </div>
        <ErrorText error={logout.error ?? logoutEverywhere.error} />
      </section>
      <section aria-labelledby="delete-title">
        <h2 id="delete-title">{t("account.delete")}</h2>
        <p class="muted">{t("account.deleteHint")}</p>
        <ConfirmButton
          label={t("account.delete")}
          question={t("account.deleteQuestion")}
          confirmLabel={t("account.deleteConfirm")}
          disabled={!online || remove.busy}
          onConfirm={() => remove.run()}
        />
        <ErrorText error={remove.error} overrides={{ 409: "account.deleteRefused" }} />
      </section>
    </main>
  );
}
