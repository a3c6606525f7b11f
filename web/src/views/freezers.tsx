import { useState } from "preact/hooks";
import { api, type Compartment, type FreezerDetail } from "../api.js";
import { ActionForm, ConfirmButton, ErrorText, Field, NameForm, useAction, useRefocus } from "../components.js";
import { loadFreezers } from "../data.js";
import { t } from "../i18n/index.js";
import { currentHousehold, useAppState } from "../store.js";

/** A name with a rename form that opens in place. */
function Rename(props: { id: string; label: string; value: string; onSave: (name: string) => Promise<unknown> }) {
  const { online } = useAppState();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(props.value);
  const save = useAction(async () => {
    await props.onSave(name);
    setEditing(false);
  });
  if (!editing) {
    return (
      <button
        type="button"
        disabled={!online}
        onClick={() => {
          setName(props.value);
          setEditing(true);
        }}
      >
        {t("action.rename")}
        <span class="visually-hidden"> {props.value}</span>
      </button>
    );
  }
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <Field id={props.id} label={props.label} required maxLength={100} value={name} onValue={setName} />
      <button type="submit" class="primary" disabled={save.busy}>
        {t("action.save")}
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        {t("action.cancel")}
      </button>
      <ErrorText error={save.error} />
    </form>
  );
}

function CompartmentRow(props: { freezer: FreezerDetail; compartment: Compartment; index: number; isOwner: boolean }) {
  const { householdId, online } = useAppState();
  const { freezer, compartment, index } = props;
  const siblings = freezer.compartments;
  // Reordering swaps positions with the neighbour; both are renumbered so equal positions never tie.
  const swap = useAction(async (offset: number) => {
    const other = siblings[index + offset];
    if (!householdId || !other) return;
    await api.updateCompartment(householdId, freezer.id, compartment.id, { position: index + offset });
    await api.updateCompartment(householdId, freezer.id, other.id, { position: index });
    await loadFreezers();
  });
  const refocus = useRefocus(swap.busy);
  const up = t("freezers.moveUp", { name: compartment.name });
  const down = t("freezers.moveDown", { name: compartment.name });
  const rename = (name: string) =>
    api.updateCompartment(householdId ?? "", freezer.id, compartment.id, { name }).then(() => loadFreezers());
  const remove = useAction(async () => {
    if (householdId) await api.deleteCompartment(householdId, freezer.id, compartment.id);
    await loadFreezers();
  });
  return (
    <li class="compartment">
      <span class="compartment-name">{compartment.name}</span>
      <div class="actions">
        <button
          type="button"
          disabled={!online || index === 0 || swap.busy}
          aria-label={up}
          onClick={() => {
            refocus([up, down]);
            void swap.run(-1);
          }}
        >
          ↑
        </button>
        <button
          type="button"
          disabled={!online || index === siblings.length - 1 || swap.busy}
          aria-label={down}
          onClick={() => {
            refocus([down, up]);
            void swap.run(1);
          }}
        >
          ↓
        </button>
        <Rename
          id={`compartment-name-${compartment.id}`}
          label={t("field.compartmentName")}
          value={compartment.name}
          onSave={rename}
        />
        {props.isOwner ? (
          <ConfirmButton
            label={t("action.delete")}
            question={t("freezers.deleteCompartmentQuestion", { name: compartment.name })}
            confirmLabel={t("action.deleteConfirm")}
            disabled={!online}
            onConfirm={() => remove.run()}
          />
        ) : null}
      </div>
      <ErrorText error={swap.error ?? remove.error} overrides={{ 409: "freezers.compartmentNotEmpty" }} />
    </li>
  );
}

function FreezerCard(props: { freezer: FreezerDetail; index: number; isOwner: boolean }) {
  const { householdId, online, freezers } = useAppState();
  const { freezer, index } = props;
  // Freezer positions may have gaps or ties (new ones go one past the highest), so a move
  // renumbers the list in its new order and saves only the freezers whose position changed:
  // usually just the two that swap places.
  const move = useAction(async (offset: number) => {
    const other = freezers[index + offset];
    if (!householdId || !other) return;
    const order = [...freezers];
    order[index] = other;
    order[index + offset] = freezer;
    for (const [position, entry] of order.entries()) {
      if (entry.position !== position) await api.moveFreezer(householdId, entry.id, position);
    }
    await loadFreezers();
  });
  const refocus = useRefocus(move.busy);
  const up = t("freezers.moveFreezerUp", { name: freezer.name });
  const down = t("freezers.moveFreezerDown", { name: freezer.name });
  const [compartment, setCompartment] = useState("");
  const add = useAction(async () => {
    if (!householdId) return;
    await api.createCompartment(householdId, freezer.id, compartment, freezer.compartments.length);
    setCompartment("");
    await loadFreezers();
  });
  const remove = useAction(async () => {
    if (householdId) await api.deleteFreezer(householdId, freezer.id);
    await loadFreezers();
  });
  return (
    <li class="card">
      <h2>{freezer.name}</h2>
      <div class="actions">
        <button
          type="button"
          disabled={!online || index === 0 || move.busy}
          aria-label={up}
          onClick={() => {
            refocus([up, down]);
            void move.run(-1);
          }}
        >
          ↑
        </button>
        <button
          type="button"
          disabled={!online || index === freezers.length - 1 || move.busy}
          aria-label={down}
          onClick={() => {
            refocus([down, up]);
            void move.run(1);
          }}
        >
          ↓
        </button>
        <Rename
          id={`freezer-name-${freezer.id}`}
          label={t("field.freezerName")}
          value={freezer.name}
          onSave={(name) => api.renameFreezer(householdId ?? "", freezer.id, name).then(() => loadFreezers())}
        />
        {props.isOwner ? (
          <ConfirmButton
            label={t("freezers.delete")}
            question={t("freezers.deleteQuestion", { name: freezer.name })}
            confirmLabel={t("action.deleteConfirm")}
            disabled={!online}
            onConfirm={() => remove.run()}
          />
        ) : null}
      </div>
      <ErrorText error={move.error ?? remove.error} overrides={{ 409: "freezers.freezerNotEmpty" }} />
      <h3>{t("freezers.compartments")}</h3>
      <ul class="compartments">
        {freezer.compartments.map((entry, index) => (
          <CompartmentRow key={entry.id} freezer={freezer} compartment={entry} index={index} isOwner={props.isOwner} />
        ))}
      </ul>
      <ActionForm class="inline" action={add} disabled={!online}>
        <Field
          id={`new-compartment-${freezer.id}`}
          label={t("freezers.newCompartment", { freezer: freezer.name })}
          required
          maxLength={100}
          value={compartment}
          onValue={setCompartment}
        />
        <button type="submit">{t("freezers.addCompartment")}</button>
      </ActionForm>
    </li>
  );
}

/** Freezers and their compartments: create, rename, reorder, delete empty ones. */
export function FreezersView() {
  const { householdId, freezers, user } = useAppState();
  const [name, setName] = useState("");
  const create = useAction(async () => {
    if (!householdId) return;
    await api.createFreezer(householdId, name);
    setName("");
    await loadFreezers();
  });
  const isOwner = currentHousehold()?.ownerId === user?.id;
  return (
    <main id="main">
      <h1>{t("freezers.title")}</h1>
      <NameForm
        action={create}
        id="new-freezer"
        label={t("freezers.newFreezer")}
        value={name}
        onValue={setName}
        submit={t("freezers.add")}
        primary
      />
      {freezers.length === 0 ? <p>{t("freezers.none")}</p> : null}
      <ul class="cards">
        {freezers.map((freezer, index) => (
          <FreezerCard key={freezer.id} freezer={freezer} index={index} isOwner={isOwner} />
        ))}
      </ul>
    </main>
  );
}
