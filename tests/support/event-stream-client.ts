/** A Server-Sent Events reader over fetch(), as the web app reads the household event stream. */
export interface StreamMessage {
  id?: string;
  event: string;
  data: unknown;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** Every message so far, in order. */
  messages: StreamMessage[];
  /** Comment lines seen (": ping"). */
  comments: string[];
  /** Resolves with the first message (from `from` on) that matches. */
  next(match: (message: StreamMessage) => boolean, from?: number): Promise<StreamMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once a comment line has arrived. */
  comment(text: string): Promise<void>;
  close(): void;
}

/** Opens the stream; for a non-200 answer, `status` tells and the body is read as JSON into `messages[0].data`. */
export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const messages: StreamMessage[] = [];
  const comments: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  let done = false;
  const ended = (async () => {
    if (response.status !== 200 || !response.body) {
      messages.push({ event: "error", data: await response.json().catch(() => null) });
      done = true;
      wake();
      return;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Partial<StreamMessage> = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line);
            else if (line.startsWith("id: ")) message.id = line.slice(4);
            else if (line.startsWith("event: ")) message.event = line.slice(7);
            else if (line.startsWith("data: ")) message.data = JSON.parse(line.slice(6));
          }
          if (message.event) messages.push(message as StreamMessage);
          end = buffer.indexOf("\n\n");
        }
        wake();
      }
    } catch (error) {
      if ((error as Error).name !== "AbortError") throw error;
    } finally {
      done = true;
      wake();
    }
  })();
  const waitFor = async <T>(find: () => T | undefined, what: string): Promise<T> => {
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (done) throw new Error(`the stream ended before ${what}; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    messages,
    comments,
    ended,
    next: (match, from = 0) => waitFor(() => messages.slice(from).find(match), "the awaited message"),
    comment: async (text) => {
      await waitFor(() => (comments.includes(text) ? true : undefined), `the comment ${text}`);
    },
    close: () => controller.abort(),
  };
}
