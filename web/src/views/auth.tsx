import { useState } from "preact/hooks";
import { api } from "../api.js";
import { ActionForm, EmailField, ErrorText, PasswordField, PersonNameField, useAction } from "../components.js";
import { signedIn } from "../data.js";
import { t } from "../i18n/index.js";
import { useAppState } from "../store.js";

/** Sign in or create an account; one form that switches between the two. */
export function AuthView() {
  const { online, pendingInvite, bootError } = useAppState();
  const [mode, setMode] = useState<"login" | "register">(pendingInvite ? "register" : "login");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = useAction(async () => {
    const user =
      mode === "login" ? await api.login({ email, password }) : await api.register({ email, password, name });
    await signedIn(user);
  });
  return (
    <main id="main" class="narrow">
      <h1>{t("app.title")}</h1>
      {pendingInvite ? <p class="notice">{t("invite.signInFirst")}</p> : null}
      {submit.error ? null : <ErrorText error={bootError} />}
      <ActionForm
        action={submit}
        disabled={!online}
        overrides={mode === "login" ? { 401: "auth.login.failed" } : { 409: "auth.register.taken" }}
        heading={<h2>{mode === "login" ? t("auth.login.title") : t("auth.register.title")}</h2>}
      >
        {mode === "register" ? <PersonNameField id="auth-name" value={name} onValue={setName} /> : null}
        <EmailField id="auth-email" value={email} onValue={setEmail} />
        <PasswordField
          id="auth-password"
          label={t("field.password")}
          isNew={mode === "register"}
          value={password}
          onValue={setPassword}
        />
        <button type="submit" class="primary">
          {mode === "login" ? t("auth.login.submit") : t("auth.register.submit")}
        </button>
      </ActionForm>
      <p>
        <button
          type="button"
          class="link"
          onClick={() => {
            setMode(mode === "login" ? "register" : "login");
            submit.setError(null);
          }}
        >
          {mode === "login" ? t("auth.toRegister") : t("auth.toLogin")}
        </button>
      </p>
    </main>
  );
}
