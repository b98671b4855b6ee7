import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** What a session's listing is made from, cheap to compare after every call: the hazard plan and the changed contracts. */
export interface ListingInputs {
  revision: object;
  contracts: string;
}

/**
 * The listing an MCP client last received, and what it was made from: after a call, a change of the
 * listing is announced once, when what it depends on moved and the listing itself differs.
 */
export class ListingWatch {
  private listed: (ListingInputs & { tools: string }) | undefined;

  constructor(
    private readonly listing: () => Tool[],
    private readonly inputs: () => ListingInputs,
    private readonly changed: () => void,
  ) {}

  /** The listing, as tools/list answers it (and remembers it). */
  list(): Tool[] {
    const tools = this.listing();
    this.listed = { ...this.inputs(), tools: JSON.stringify(tools) };
    return tools;
  }

  /** Announces a listing change once, when what it depends on moved and the listing itself differs. */
  check(): void {
    if (!this.listed) return;
    const now = this.inputs();
    if (now.revision === this.listed.revision && now.contracts === this.listed.contracts) return;
    if (JSON.stringify(this.listing()) === this.listed.tools) this.listed = { ...this.listed, ...now };
    else {
      this.listed = undefined;
      this.changed();
    }
  }
}
