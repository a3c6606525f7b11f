import { DomainError } from "../shared/domain-error.js";

/** Raised for an MQTT topic filter that the MQTT specification does not allow. */
export class InvalidTopicFilterError extends DomainError {
  readonly code = "INVALID_TOPIC_FILTER";
}

/**
 * Why `filter` is not a valid MQTT topic filter, or null when it is. Rules: not empty,
 * no NUL character, `+` and `#` only as a whole level, `#` only as the last level.
 */
export function topicFilterProblem(filter: string): string | null {
  if (typeof filter !== "string" || filter.length === 0) return "topic filter is empty";
  if (filter.includes("\u0000")) return "topic filter contains a NUL character";
  const levels = filter.split("/");
  for (let index = 0; index < levels.length; index++) {
    const level = levels[index] as string;
    if (level.includes("#") && (level !== "#" || index !== levels.length - 1)) {
      return "'#' must be a whole level and the last one";
    }
    if (level.includes("+") && level !== "+") return "'+' must be a whole level";
  }
  return null;
}

/** Throws InvalidTopicFilterError when `filter` is not a valid topic filter. */
export function assertTopicFilter(filter: string): void {
  const problem = topicFilterProblem(filter);
  if (problem) throw new InvalidTopicFilterError(`Invalid MQTT topic filter "${filter}": ${problem}`);
}

/** True when the filter contains `+` or `#`. */
export function hasWildcard(filter: string): boolean {
  return filter.includes("+") || filter.includes("#");
}

/**
 * Whether `topic` matches `filter`: `+` matches exactly one level, `#` the rest (including
 * the parent level itself), and topics starting with `$` never match a filter whose first
 * level is a wildcard.
 */
export function topicMatches(filter: string, topic: string): boolean {
  const filterLevels = filter.split("/");
  const topicLevels = topic.split("/");
  if (topic.startsWith("$") && (filterLevels[0] === "+" || filterLevels[0] === "#")) return false;
  for (let index = 0; index < filterLevels.length; index++) {
    const level = filterLevels[index];
    if (level === "#") return true;
    if (index >= topicLevels.length) return false;
    if (level !== "+" && level !== topicLevels[index]) return false;
  }
  return filterLevels.length === topicLevels.length;
}

interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  plus: TrieNode<T> | undefined;
  /** Values of filters ending in `#` at this node. */
  hash: T[] | undefined;
  /** Values of filters ending exactly at this node. */
  values: T[] | undefined;
}

function emptyNode<T>(): TrieNode<T> {
  return { children: new Map(), plus: undefined, hash: undefined, values: undefined };
}

/**
 * An index of topic filters. Exact filters live in a map; wildcard filters in a trie keyed
 * by level, so finding the filters matching a topic costs one map lookup plus a walk over
 * the topic's levels — not a scan over every subscription.
 */
export class TopicIndex<T> {
  private readonly exact = new Map<string, T[]>();
  private readonly root: TrieNode<T> = emptyNode();
  private wildcardCount = 0;

  /** Adds `value` under `filter` (validated). */
  add(filter: string, value: T): void {
    assertTopicFilter(filter);
    if (!hasWildcard(filter)) {
      const list = this.exact.get(filter);
      if (list) list.push(value);
      else this.exact.set(filter, [value]);
      return;
    }
    let node = this.root;
    for (const level of filter.split("/")) {
      if (level === "#") {
        node.hash ??= [];
        node.hash.push(value);
        this.wildcardCount++;
        return;
      }
      if (level === "+") {
        node.plus ??= emptyNode();
        node = node.plus;
      } else {
        let child = node.children.get(level);
        if (!child) {
          child = emptyNode();
          node.children.set(level, child);
        }
        node = child;
      }
    }
    node.values ??= [];
    node.values.push(value);
    this.wildcardCount++;
  }

  /** Removes one occurrence of `value` under `filter`; returns whether it was there. */
  remove(filter: string, value: T): boolean {
    if (!hasWildcard(filter)) {
      const list = this.exact.get(filter);
      if (!list) return false;
      const at = list.indexOf(value);
      if (at < 0) return false;
      list.splice(at, 1);
      if (list.length === 0) this.exact.delete(filter);
      return true;
    }
    const removed = this.removeFrom(this.root, filter.split("/"), 0, value);
    if (removed) this.wildcardCount--;
    return removed;
  }

  private removeFrom(node: TrieNode<T>, levels: string[], depth: number, value: T): boolean {
    const level = levels[depth];
    if (level === undefined) return removeValue(node, "values", value);
    if (level === "#") return removeValue(node, "hash", value);
    const child = level === "+" ? node.plus : node.children.get(level);
    if (!child || !this.removeFrom(child, levels, depth + 1, value)) return false;
    if (isEmpty(child)) {
      if (level === "+") node.plus = undefined;
      else node.children.delete(level);
    }
    return true;
  }

  /** Calls `visit` for every value whose filter matches `topic`. */
  forEachMatch(topic: string, visit: (value: T) => void): void {
    const exact = this.exact.get(topic);
    if (exact) for (const value of exact) visit(value);
    if (this.wildcardCount === 0) return;
    const levels = topic.split("/");
    // Filters starting with a wildcard never match `$` topics (MQTT 3.1.1 §4.7.2).
    const dollar = topic.charCodeAt(0) === 36;
    this.walk(this.root, levels, 0, visit, dollar);
  }

  /** Values whose filter matches `topic`. */
  match(topic: string): T[] {
    const found: T[] = [];
    this.forEachMatch(topic, (value) => found.push(value));
    return found;
  }

  /** True when at least one filter matches `topic`. */
  hasMatch(topic: string): boolean {
    if (this.exact.has(topic)) return true;
    if (this.wildcardCount === 0) return false;
    let found = false;
    this.walk(
      this.root,
      topic.split("/"),
      0,
      () => {
        found = true;
      },
      topic.charCodeAt(0) === 36,
    );
    return found;
  }

  private walk(node: TrieNode<T>, levels: string[], depth: number, visit: (value: T) => void, dollar: boolean): void {
    const skipWildcards = dollar && depth === 0;
    if (node.hash && !skipWildcards) for (const value of node.hash) visit(value);
    if (depth === levels.length) {
      if (node.values) for (const value of node.values) visit(value);
      return;
    }
    const child = node.children.get(levels[depth] as string);
    if (child) this.walk(child, levels, depth + 1, visit, dollar);
    if (node.plus && !skipWildcards) this.walk(node.plus, levels, depth + 1, visit, dollar);
  }

  get size(): number {
    let total = this.wildcardCount;
    for (const list of this.exact.values()) total += list.length;
    return total;
  }
}

function removeValue<T>(node: TrieNode<T>, slot: "values" | "hash", value: T): boolean {
  const list = node[slot];
  if (!list) return false;
  const at = list.indexOf(value);
  if (at < 0) return false;
  list.splice(at, 1);
  if (list.length === 0) node[slot] = undefined;
  return true;
}

function isEmpty<T>(node: TrieNode<T>): boolean {
  return node.children.size === 0 && !node.plus && !node.hash && !node.values;
}
