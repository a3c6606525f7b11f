import { Automation, type Trigger, type TriggerContext, WebhookRefusedError } from "hearth";

/**
 * `POST /webhook/away-mode` with `{ "away": true }` (from a phone shortcut, for example)
 * sets the `away` state key; other automations can react with a state trigger.
 */
export default class AwayModeWebhook extends Automation {
  readonly name = "away-mode-webhook";

  readonly triggers: Trigger[] = [{ type: "webhook", path: "away-mode", methods: ["POST", "PUT"] }];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "webhook") return;
    const body = context.body as { away?: unknown } | undefined;
    // The caller sent the wrong body: a 400 tells it so, where any other exception answers 500.
    if (typeof body?.away !== "boolean")
      throw new WebhookRefusedError(400, 'Expected a JSON body like {"away": true}', {
        details: [{ path: "away", message: "must be true or false" }],
      });
    this.state.set("away", body.away);
  }
}
