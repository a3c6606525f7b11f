import { useState } from "preact/hooks";
import { api } from "../api.js";
import { ActionForm, ConfirmButton, ErrorText, Field, useAction } from "../components.js";
import { signedOut } from "../data.js";
import { t } from "../i18n/index.js";
import { remember, setState, useAppState } from "../store.js";

/** The signed-in user: name, email, password, signing out, deleting the account. */
export function AccountView() {
  const { user, online } = useAppState();
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
          <Field
            id="account-name"
            label={t("field.name")}
            autocomplete="name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <Field
            id="account-email"
            label={t("field.email")}
            type="email"
            autocomplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <button type="submit" class="primary">
            {t("action.save")}
          </button>
        </ActionForm>
      </section>
      <section aria-labelledby="password-title">
        <h2 id="password-title">{t("account.password")}</h2>
        <ActionForm action={password} disabled={!online}>
          <Field
            id="account-current-password"
            label={t("account.currentPassword")}
            type="password"
            autocomplete="current-password"
            required
            value={currentPassword}
            onInput={(e) => setCurrentPassword(e.currentTarget.value)}
          />
          <Field
            id="account-new-password"
            label={t("account.newPassword")}
            type="password"
            autocomplete="new-password"
            minLength={8}
            hint={t("auth.password.hint")}
            required
            value={newPassword}
            onInput={(e) => setNewPassword(e.currentTarget.value)}
          />
          <button type="submit">{t("account.changePassword")}</button>
        </ActionForm>
      </section>
      <section aria-labelledby="signout-title">
        <h2 id="signout-title">{t("account.signOutTitle")}</h2>
        <div class="actions">
          <button type="button" disabled={logout.busy} onClick={() => void logout.run()}>
            {t("account.signOut")}
          </button>
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
