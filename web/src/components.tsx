import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { describeError, type ErrorOverrides, type FieldLabels } from "./errors.js";
import { formatNumber, parseDecimal } from "./format.js";
import { type MessageKey, t } from "./i18n/index.js";
import { navigate } from "./router.js";
import { useAppState } from "./store.js";

/** The app's one polite live region: screen changes, adds, take-outs, live updates. */
export function Announcer() {
  const { announcement } = useAppState();
  return (
    <div class="visually-hidden" aria-live="polite" aria-atomic="true" id="announcer">
      {announcement}
    </div>
  );
}

/** An in-app link: a real <a href> (keyboard, open in new tab) that navigates without a reload. */
export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  const onClick = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={props.href} class={props.class} onClick={onClick} aria-current={props.current ? "page" : undefined}>
      {props.children}
    </a>
  );
}

/** The sentence for a failure, next to what failed; announced to screen readers. */
export function ErrorText(props: { error: unknown; overrides?: ErrorOverrides; labels?: FieldLabels }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert">
      {describeError(props.error, props.overrides, props.labels)}
    </p>
  );
}

/** A load that failed: the sentence and a retry, never an empty screen that looks like "nothing there". */
export function LoadFailed(props: { error: unknown; onRetry: () => unknown; overrides?: ErrorOverrides }) {
  const [busy, setBusy] = useState(false);
  return (
    <div class="load-failed">
      <ErrorText error={props.error} overrides={props.overrides} />
      <button
        type="button"
        class="primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await props.onRetry();
          } catch {
            // The retry's own failure replaces the sentence above.
          } finally {
            setBusy(false);
          }
        }}
      >
        {t("action.retry")}
      </button>
    </div>
  );
}

/**
 * Runs an async action, tracking whether it is busy and what it failed with, so a button can
 * be disabled while it runs and the error can be shown beside it.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/**
 * A form that runs an action on submit: its controls sit in one fieldset, disabled while the
 * action runs or when `disabled` (offline, archived), and the action's failure shows below.
 */
export function ActionForm(props: {
  action: { busy: boolean; error: unknown; run: () => Promise<unknown> };
  disabled?: boolean;
  class?: string;
  overrides?: ErrorOverrides;
  /** The form's own names for the API's fields. */
  labels?: FieldLabels;
  /** Above the controls (a title). */
  heading?: ComponentChildren;
  /** Between the controls and the error (a notice about them). */
  note?: ComponentChildren;
  children: ComponentChildren;
}) {
  const form = useRef<HTMLFormElement>(null);
  const hadFocus = useRef(false);
  // The fieldset is disabled while the action runs, which drops the focus to <body>; once it is
  // enabled again the focus returns to the button that was pressed (unless something took it).
  useEffect(() => {
    if (props.action.busy || !hadFocus.current) return;
    hadFocus.current = false;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    form.current?.querySelector<HTMLElement>("button[type=submit]:not(:disabled), input, select, textarea")?.focus();
  }, [props.action.busy]);
  return (
    <form
      ref={form}
      class={props.class}
      onSubmit={(event) => {
        event.preventDefault();
        hadFocus.current = true;
        void props.action.run();
      }}
    >
      {props.heading}
      <fieldset disabled={props.disabled || props.action.busy}>{props.children}</fieldset>
      {props.note}
      <ErrorText error={props.action.error} overrides={props.overrides} labels={props.labels} />
    </form>
  );
}

/** A labelled input; the label is a real <label for>, so every field has an accessible name. */
export function Field(
  props: {
    label: string;
    id: string;
    hint?: string;
    /** Called with the text on every input. */
    onValue?: (value: string) => void;
  } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, id, hint, onValue, ...rest } = props;
  // The rest type of a union of input variants confuses the compiler; it is the input's attributes.
  const input = rest as InputHTMLAttributes<HTMLInputElement>;
  const textual = input.type === undefined || input.type === "text";
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...(onValue
          ? {
              onInput: (event) => {
                if (textual && input.required) refuseBlank(event.currentTarget);
                onValue(event.currentTarget.value);
              },
            }
          : {})}
        {...input}
      />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

/**
 * A required name of only spaces is not a name: the browser's own validation refuses it with
 * the app's sentence, before anything is sent.
 */
export function refuseBlank(input: HTMLInputElement | HTMLTextAreaElement): void {
  input.setCustomValidity(input.value.length > 0 && input.value.trim() === "" ? t("rule.blank") : "");
}

/** What the account fields take: where they are and the state they edit. */
interface AccountFieldProps {
  id: string;
  value: string;
  onValue: (value: string) => void;
}

/** A person's name, as register and the account page ask for it. */
export function PersonNameField(props: AccountFieldProps) {
  return <Field {...props} label={t("field.name")} autocomplete="name" required maxLength={100} />;
}

/** An e-mail address to sign in with. */
export function EmailField(props: AccountFieldProps) {
  return <Field {...props} label={t("field.email")} type="email" autocomplete="email" required />;
}

/** A password: a new one (register, change) needs 8 characters and says so; a current one does not. */
export function PasswordField(props: AccountFieldProps & { label: string; isNew: boolean }) {
  const { isNew, ...field } = props;
  return (
    <Field
      {...field}
      type="password"
      autocomplete={isNew ? "new-password" : "current-password"}
      minLength={isNew ? 8 : undefined}
      hint={isNew ? t("auth.password.hint") : undefined}
      required
    />
  );
}

/** An inline one-field form for a name (a new freezer, a household's name) and its button; off while offline. */
export function NameForm(props: {
  action: { busy: boolean; error: unknown; run: () => Promise<unknown> };
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  submit: string;
  primary?: boolean;
}) {
  const { online } = useAppState();
  return (
    <ActionForm class="inline" action={props.action} disabled={!online}>
      <Field id={props.id} label={props.label} required maxLength={100} value={props.value} onValue={props.onValue} />
      <button type="submit" class={props.primary ? "primary" : undefined}>
        {props.submit}
      </button>
    </ActionForm>
  );
}

/** The `<option>`s of named things (freezers, compartments), valued by id. */
export function NamedOptions(props: { of: readonly { id: string; name: string }[] | undefined }) {
  return (
    <>
      {props.of?.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </>
  );
}

/**
 * A quantity: a positive decimal number (0.5 kg, 3 bags), typed with the language's decimal
 * separator ("1,5" in German). A text field, since a number field's parsing of "1,5" depends on
 * the browser; the app's own parser checks it and the browser's validation shows why not.
 */
export function QuantityField(props: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  max?: number;
}) {
  const check = (input: HTMLInputElement) => {
    const value = parseDecimal(input.value);
    input.setCustomValidity(
      !(value > 0)
        ? t("rule.decimal")
        : props.max !== undefined && value > props.max
          ? t("rule.max", { n: formatNumber(props.max) })
          : "",
    );
  };
  return (
    <Field
      id={props.id}
      label={props.label}
      type="text"
      inputMode="decimal"
      autocomplete="off"
      required
      value={props.value}
      ref={(input: HTMLInputElement | null) => {
        if (input) check(input);
      }}
      onInput={(event) => {
        check(event.currentTarget);
        props.onValue(event.currentTarget.value);
      }}
    />
  );
}

/**
 * Asks "is that right?" once before saving an unlikely value (a date in the past, 999 999 bags):
 * `check` says whether the save may go ahead; `panel` is the question with its two answers.
 */
export function useSoftConfirm() {
  const [asking, setAsking] = useState<MessageKey[] | null>(null);
  const confirmed = useRef(false);
  const check = (reasons: MessageKey[]): boolean => {
    if (reasons.length === 0 || confirmed.current) {
      confirmed.current = false;
      setAsking(null);
      return true;
    }
    setAsking(reasons);
    return false;
  };
  const panel = (run: () => unknown, firstField: string) =>
    asking ? (
      <div class="notice unlikely" role="alert">
        <p>{asking.map((reason) => t(reason)).join(" ")}</p>
        <div class="actions">
          <button
            type="button"
            class="primary"
            ref={(button) => button?.focus()}
            onClick={() => {
              confirmed.current = true;
              void run();
            }}
          >
            {t("unlikely.confirm")}
          </button>
          <button
            type="button"
            onClick={() => {
              setAsking(null);
              document.getElementById(firstField)?.focus();
            }}
          >
            {t("unlikely.change")}
          </button>
        </div>
      </div>
    ) : null;
  return { check, panel, asking: asking !== null };
}

export function Select(
  props: {
    label: string;
    id: string;
    children: ComponentChildren;
    /** Called with the chosen value on every change. */
    onValue?: (value: string) => void;
  } & SelectHTMLAttributes<HTMLSelectElement>,
) {
  const { label, id, children, onValue, ...rest } = props;
  const select = rest as SelectHTMLAttributes<HTMLSelectElement>;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...(onValue ? { onChange: (event) => onValue(event.currentTarget.value) } : {})} {...select}>
        {children}
      </select>
    </div>
  );
}

/**
 * A destructive button that asks once more in place (no modal): the first press shows the
 * question with a confirm and a cancel button, keyboard focus moving to the confirm button.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  onConfirm: () => unknown;
}) {
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  // Back on the button that asked, in the same commit that brings it back (never left on <body>).
  useLayoutEffect(() => {
    if (asking || !returnFocus.current) return;
    returnFocus.current = false;
    trigger.current?.focus();
  }, [asking]);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  if (!asking) {
    return (
      <button type="button" ref={trigger} class="danger" disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <fieldset
      class="confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          cancel();
        }
      }}
    >
      <legend>{props.question}</legend>
      <button
        type="button"
        class="danger"
        ref={(button) => button?.focus()}
        disabled={props.disabled}
        onClick={async () => {
          returnFocus.current = true;
          setAsking(false);
          await props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" onClick={cancel}>
        {t("action.cancel")}
      </button>
    </fieldset>
  );
}

/** The longest notes the API keeps. */
export const NOTES_LIMIT = 2000;

/** Notes: several lines, with the limit stated and counted as the user types (never cut silently). */
export function NotesField(props: { id: string; value: string; onValue: (value: string) => void }) {
  const left = NOTES_LIMIT - props.value.length;
  return (
    <div class="field">
      <label for={props.id}>{t("field.notes")}</label>
      <textarea
        id={props.id}
        rows={3}
        maxLength={NOTES_LIMIT}
        aria-describedby={`${props.id}-count`}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
      <small id={`${props.id}-count`} class={left < 100 ? "hint warn" : "hint"} aria-live="polite">
        {t("notes.count", { used: formatNumber(props.value.length), limit: formatNumber(NOTES_LIMIT) })}
      </small>
    </div>
  );
}

/**
 * Keeps the keyboard on a control that was disabled while its action ran (a reorder arrow):
 * once the action is done, the first of `labels` that is enabled again takes the focus.
 */
export function useRefocus(busy: boolean) {
  const wanted = useRef<string[] | null>(null);
  useEffect(() => {
    if (busy || !wanted.current) return;
    const labels = wanted.current;
    wanted.current = null;
    for (const label of labels) {
      const button = document.querySelector<HTMLButtonElement>(`button[aria-label="${CSS.escape(label)}"]`);
      if (button && !button.disabled) {
        button.focus();
        return;
      }
    }
  }, [busy]);
  return (labels: string[]) => {
    wanted.current = labels;
  };
}
