import { useState } from "preact/hooks";
import { api, type Category } from "../api.js";
import { ActionForm, ConfirmButton, ErrorText, Field, useAction } from "../components.js";
import { categoryLabel, useCategories } from "../categories.js";
import { t } from "../i18n/index.js";
import { announce, getState, setState, useAppState } from "../store.js";

/** Everyone sees the household's categories; the owner renames, adds and removes them. */
export function CategoriesView() {
  const { householdId, households, user } = useAppState();
  const categories = useCategories();
  const isOwner = households.find((household) => household.id === householdId)?.ownerId === user?.id;
  const [name, setName] = useState("");
  const changed = () => setState({ liveVersion: getState().liveVersion + 1 });
  const add = useAction(async () => {
    if (!householdId) return;
    const created = await api.createCategory(householdId, name.trim());
    setName("");
    announce(t("categories.added", { name: categoryLabel(created) }));
    changed();
  });
  return (
    <main id="main" class="screen">
      <h1>{t("categories.title")}</h1>
      <p class="muted">{t("categories.intro")}</p>
      <ul class="categories">
        {categories.map((category) => (
          <CategoryRow key={category.id} category={category} editable={isOwner} onChanged={changed} />
        ))}
      </ul>
      {isOwner ? (
        <ActionForm action={add} labels={{ name: "categories.newName" }}>
          <Field id="category-new" label={t("categories.newName")} value={name} onValue={setName} required />
          <button type="submit" class="primary">
            {t("categories.add")}
          </button>
        </ActionForm>
      ) : null}
    </main>
  );
}

function CategoryRow(props: { category: Category; editable: boolean; onChanged: () => void }) {
  const { householdId } = useAppState();
  const { category } = props;
  const label = categoryLabel(category);
  const [name, setName] = useState(label);
  const rename = useAction(async () => {
    if (!householdId || name.trim() === label) return;
    await api.renameCategory(householdId, category.id, name.trim());
    announce(t("categories.renamed", { name: name.trim() }));
    props.onChanged();
  });
  const remove = useAction(async () => {
    if (!householdId) return;
    await api.deleteCategory(householdId, category.id);
    announce(t("categories.deleted", { name: label }));
    props.onChanged();
  });
  if (!props.editable) return <li class="category-row">{label}</li>;
  return (
    <li class="category-row" data-category={category.id}>
      <ActionForm action={rename} labels={{ name: "field.name" }}>
        <Field id={`category-${category.id}`} label={t("field.name")} value={name} onValue={setName} required />
        <button type="submit">{t("action.rename")}</button>
      </ActionForm>
      <ConfirmButton
        label={t("action.delete")}
        question={t("categories.deleteQuestion", { name: label })}
        confirmLabel={t("action.deleteConfirm")}
        onConfirm={() => void remove.run()}
      />
      <ErrorText error={remove.error} />
    </li>
  );
}
