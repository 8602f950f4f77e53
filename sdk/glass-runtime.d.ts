// TypeScript declarations of the Glass reference page runtime — protocol
// glass.page/v1 — for both of its forms: the classic script
// (glass-runtime.js, which installs the global glassRuntime) and the ES
// module (glass-runtime.mjs, which exports it). docs/runtime.md documents
// every field of a declaration; CONTRACT.md is normative.
//
// The declaration types (PageSpec, ActionDeclaration, …) are written here;
// the namespaces receipt and snapshot, below the "generated" line, are
// generated from schema/receipt.schema.json and schema/snapshot.schema.json,
// and a test fails when they differ from the schemas.

/** The protocol version every snapshot and receipt carries. */
export type ProtocolVersion = "glass.page/v1";

/** The arguments of a call, validated against the action's `params` and with its defaults filled in. */
export type Args = Record<string, any>;

/**
 * The JSON Schema subset a runtime validates arguments against (CONTRACT.md
 * §2.3). Other keywords are kept and shown to the model, not enforced.
 */
export interface ParamsSchema {
  type?: ParamsType | ParamsType[];
  description?: string;
  properties?: Record<string, ParamsSchema>;
  required?: string[];
  /** `false`: an undeclared member fails INVALID_PARAMS; a schema: undeclared members are validated against it. */
  additionalProperties?: boolean | ParamsSchema;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: ParamsSchema;
  minItems?: number;
  maxItems?: number;
  /** Filled in when the member is absent: the handler receives the normalised arguments. */
  default?: unknown;
  /** The value is masked as "[sensitive]" in confirmation and hand-off requests. */
  sensitive?: boolean;
  [keyword: string]: unknown;
}

export type ParamsType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

/** A condition the runtime polls after the action ran, until it is true or its timeout passes (stage 7). */
export interface Expectation<A = Args> {
  /** What success looks like, reported as the receipt's `expect`. Default: "the declared expectation". */
  description?: string;
  /** Polled after DOM mutations and frames; a throw counts as false. */
  until: (args: A) => unknown;
  /** Milliseconds; default 2000. The host's `expectTimeoutMs` overrides it. */
  timeoutMs?: number;
}

/**
 * An expectation, or a builder that makes one from the call's arguments.
 * A builder is called once per call, after stage 5 and right before the
 * first effect, so it may capture the page's state to compare with later.
 * Returning null or undefined declares none for these arguments; throwing
 * stops the call with ACTION_UNAVAILABLE before anything ran. The
 * snapshot calls it without arguments for its description.
 */
export type ExpectationDeclaration<A = Args> = Expectation<A> | ((args: A) => Expectation<A> | null | undefined);

/** The target of an element action: a CSS selector, an element, or a function that finds it now. */
export type TargetDeclaration<A = Args> = string | Element | ((args: A) => Element | null | undefined);

/**
 * Business availability: true (or nothing) when available; false, a reason
 * string, or {available: false, reason} when not. The snapshot calls it
 * without arguments; a call calls it with them, at stage 5.
 */
export type Availability = boolean | string | { available: boolean; reason?: string } | null | undefined | void;

/** What a `run` function receives besides the arguments. */
export interface RunContext {
  /** The call's executionId. */
  executionId: string;
  /** The element action's resolved target, or null. */
  target: Element | null;
  /** Tells the settle step about asynchronous work the handler started. */
  track<T>(work: T): T;
}

/** One step of a flow: an action id, or an object naming the action and its arguments. */
export type StepDeclaration<A = Args> =
  | string
  | {
      /** The step's action id, or a function of the flow's arguments that returns it when the step runs. */
      action: string | ((args: A) => string);
      /** The step's arguments, or a function of the flow's arguments that builds them; default {}. */
      args?: Args | ((args: A) => Args);
      /** What the snapshot lists for a step whose id is a function. */
      label?: string;
    };

export type ActionKind = "element" | "function" | "flow" | "handoff";

/**
 * One declared action. Only `id` is required; `kind` is inferred when
 * absent: `steps` make a flow, `instructions` a hand-off, `target` (or
 * `selector`) an element action, anything else a function action.
 */
export interface ActionDeclaration<A = Args> {
  /** The action id; `name@record` for a per-row action, folded into one WebMCP tool `name`. */
  id: string;
  /** What the action does, for the model and the confirmation request. */
  description?: string;
  kind?: ActionKind;
  /** Default: read for a function action, write otherwise. A flow: the highest of its steps' risks, at least write. */
  risk?: Risk;
  /** Ask the host for confirmation although the risk is below dangerous. */
  confirm?: boolean;
  /** Calling it twice with the same arguments has the effect of calling it once: a caller may retry a call that did not start (retry_safe). */
  idempotent?: boolean;
  /** Only a flow may run it: no WebMCP tool, and a direct call fails ACTION_UNAVAILABLE. */
  stepOnly?: boolean;
  /** The JSON Schema of the arguments; default: an object with no declared members. */
  params?: ParamsSchema;
  /** Business availability, checked at stage 5 and shown in the snapshot. */
  available?: (args: A | undefined) => Availability;

  /** Element and hand-off actions: the control a user would use. */
  target?: TargetDeclaration<A>;
  /** Another name for `target`. */
  selector?: TargetDeclaration<A>;
  /** The target is a control the runtime can operate natively (fidelity high). */
  native?: boolean;
  /** Brings a target that is not visible into view; the runtime checks it again after the page settled. */
  reveal?: (args: A) => unknown;
  /** The page's own execution path. A function action's return value is the receipt's bounded `data`. */
  run?: (args: A, context: RunContext) => unknown;
  /** The success condition, verified at stage 7. */
  expect?: ExpectationDeclaration<A>;

  /** Flows: the ordered steps, each a declared action; or a function of the flow's arguments. */
  steps?: StepDeclaration<A>[] | ((args: A) => StepDeclaration<A>[]);

  /** Hand-offs: what the page tells the user to do (at most 500 characters; default: the description). */
  instructions?: string | ((args: A) => string);
  /** Hand-offs: how the runtime verifies the user's completion; default: `expect`. */
  check?: ExpectationDeclaration<A>;
  /** Hand-offs: how long to wait for the user, in milliseconds; default 60000. */
  timeoutMs?: number;
}

/** One business record the page holds. */
export interface RecordDeclaration {
  id: string | number;
  /** The visible fields, compared field by field for changed.records.updated. */
  fields?: Record<string, unknown>;
}

/** One message the page shows its user now. */
export interface FeedbackDeclaration {
  /** success, error, info, …; default "info". */
  kind?: string;
  text: string;
}

/** What a page passes to define: functions the runtime calls whenever it reads the page model. */
export interface PageSpec {
  page?: () => { id?: string; title?: string };
  records?: () => RecordDeclaration[];
  state?: () => Record<string, unknown>;
  feedback?: () => FeedbackDeclaration[];
  actions?: () => ActionDeclaration<any>[];
}

export interface SnapshotOptions {
  /** A positive integer: at most this many records and actions. */
  limit?: number;
  secrets?: Record<string, string>;
}

/** The options of execute and resume (CONTRACT.md §6.1); a runtime ignores others. */
export interface ExecuteOptions {
  /** Used as the receipt's executionId when it matches ^[A-Za-z0-9_.:-]{1,64}$. */
  executionId?: string;
  /** Guards the call: STALE_REVISION when the page's revision is another. */
  expectedRevision?: number | null;
  /** Values for {"$sensitive": name} placeholders. */
  secrets?: Record<string, string>;
  expectTimeoutMs?: number;
  handoffTimeoutMs?: number;
  /** "safe" selects the safe-retry policy. */
  retry?: "safe";
}

/** The global a runtime installs (CONTRACT.md §6.1). */
export interface GlassRuntime {
  readonly protocol: ProtocolVersion;
  /** The runtime's name and version, e.g. "glass-reference/0.3.0". */
  readonly runtime: string;
  /** Declares the page model and its actions. */
  define(spec: PageSpec): void;
  /** Resolves once the page has declared its model. */
  ready(): Promise<true>;
  /** Tells the settle step about asynchronous work; returns its argument. */
  track<T>(work: T): T;
  snapshot(options?: SnapshotOptions): Snapshot;
  /** Runs one call through the eight stages; never rejects for a failure the contract names. */
  execute(id: string, args?: string | Args | null, options?: ExecuteOptions): Promise<Receipt>;
  /** Continues a flow from the step that failed; a handle is good for one resume. */
  resume(handle: string, options?: ExecuteOptions): Promise<Receipt>;
  /** The mistakes found in the page's declarations so far (an unknown risk or kind, an expect that is not one, an id declared twice), each once, at most 50; the console shows them too. */
  warnings(): string[];
}

/** A confirmation request, runtime to host (CONTRACT.md §6.3). */
export interface ConfirmRequest {
  executionId: string;
  action: string;
  description: string;
  risk: Risk;
  args: Args;
  /** Present when a step of a flow asks again: the step's action id. */
  step?: string;
}

export interface ConfirmAnswer {
  approved: boolean;
  ticket?: string;
  reason?: string;
}

/** A hand-off request, runtime to host (CONTRACT.md §6.3). */
export interface HandoffRequest {
  executionId: string;
  action: string;
  description: string;
  args: Args;
  instructions: string;
  timeoutMs: number;
}

export interface HandoffAnswer {
  status: "completed" | "cancelled" | "timeout" | "failed";
  reason?: string;
}

/** The channels a host installs before any page script runs (CONTRACT.md §6.2). */
export interface GlassHost {
  readonly protocol: ProtocolVersion;
  /** Absent: no confirmation channel, and every call that needs one is denied. */
  confirm?(request: ConfirmRequest): Promise<ConfirmAnswer>;
  handoff?(request: HandoffRequest): Promise<HandoffAnswer>;
}

/** The receipt a runtime returns: the canonical form (CONTRACT.md §4.1). */
export type Receipt = receipt.CanonicalReceipt;

/** The page model a runtime exposes (CONTRACT.md §5). */
export type Snapshot = snapshot.Snapshot;

/** A risk class: read, write or dangerous (CONTRACT.md §2.4). */
export type Risk = receipt.Risk;

declare global {
  /** Installed by the classic script glass-runtime.js. */
  var glassRuntime: GlassRuntime;
  /** Installed by the host, when there is one. */
  var glassHost: GlassHost | undefined;
}

/** The runtime, as the ES module glass-runtime.mjs exports it. */
export declare const glassRuntime: GlassRuntime;
export default glassRuntime;

// ---- generated from schema/receipt.schema.json and schema/snapshot.schema.json;
// ---- go test ./sdk -run TestTypesMatchTheSchemas -update writes it; do not edit
/** Glass receipt (protocol glass.page/v1) */
export declare namespace receipt {
  /** The bounded, structured result of one call of a declared action. The canonical form nests the lifecycle receipt under result beside the Glass envelope; seed 004's flat form (status, action as a string, kind, previousRevision/currentRevision) is accepted on input. CONTRACT.md is normative; this schema checks shape, the conformance rules check behaviour. */
  export type Receipt = FlatReceipt | CanonicalReceipt;

  /** The declared action the call reached. */
  export type Action = {
    id: string;
    description?: string;
  };

  export type ActionChanges = {
    added: string[];
    removed: string[];
    omitted: {
      added: Count;
      removed: Count;
    };
  };

  /** Text a receipt carries about a failure or its evidence; bounded (CONTRACT.md, "Bounds"). */
  export type BoundedText = string;

  /** The canonical form: what a page runtime returns. */
  export type CanonicalReceipt = {
    protocol?: Protocol;
    executionId?: ExecutionId;
    result: Result;
    revision?: Revision;
    phase?: Phase;
    recoveryStrategy?: RecoveryStrategy;
    recovery?: Recovery;
    confirmations?: Confirmation[];
    /** An extension field (CONTRACT.md §4.3). */
    [extension: string]: unknown;
  } & (
    | {
      result: Result & { ok: true };
      phase?: never;
      recovery?: never;
      recoveryStrategy?: never;
    }
    | {
      result: Result & { ok: false };
    }
  );

  /** The before/after comparison of the page model. A part is present only when something in it changed. */
  export type Changed = {
    /** True exactly when some part changed. */
    observed: boolean;
    page?: PageChange;
    records?: RecordChanges;
    actions?: ActionChanges;
    state?: StateChanges;
    feedback?: FeedbackChange;
  } & (
    | {
      observed: false;
      actions?: never;
      feedback?: never;
      page?: never;
      records?: never;
      state?: never;
    }
    | {
      observed: true;
    }
  );

  /** One confirmation the runtime asked of the host. */
  export type Confirmation = {
    action: string;
    risk: Risk;
    approved: boolean;
    /** The host's ticket for this answer, copied unchanged. */
    ticket?: string;
  };

  /** A revision, count or index: a non-negative integer a JavaScript number holds exactly. */
  export type Count = number;

  /** A structured failure; bounded, with no raw page contents, credentials or typed values. */
  export type Error = {
    code: "ACTION_NOT_FOUND" | "INVALID_ARGS" | "INVALID_PARAMS" | "STALE_REVISION" | "PERMISSION_DENIED" | "ACTION_UNAVAILABLE" | "EXECUTION_FAILED" | "STEP_FAILED" | "HANDOFF_CANCELLED" | "HANDOFF_TIMEOUT" | "HANDOFF_FAILED" | "EXPECTATION_FAILED" | "PAGE_CRASHED" | "PAGE_NAVIGATED" | "PAGE_CLOSED" | "RUNTIME_MISSING" | "PROTOCOL_MISMATCH" | "RECEIPT_INVALID" | "CALL_TIMEOUT" | "TRANSPORT_FAILED" | "EXECUTION_MISMATCH";
    message?: BoundedText;
    reason?: BoundedText;
    /** The JSON Pointer of the offending argument (INVALID_PARAMS). */
    path?: BoundedText;
    /** The actions available now (ACTION_NOT_FOUND). */
    available?: string[];
    /** Did the business operation possibly start? */
    started?: "no" | "yes" | "unknown";
    /** The index of the failed step (STEP_FAILED). */
    step?: Count;
    expectedRevision?: Count;
    currentRevision?: Count;
  };

  /** The id of this attempt. A runtime assigns one of the form ^[A-Za-z0-9_.:-]{1,64}$ or uses the host's options.executionId (rule envelope.execution-id). */
  export type ExecutionId = string;

  /** One message the page shows its user: a toast, a banner, an inline error. */
  export type Feedback = {
    kind: string;
    text: BoundedText;
  };

  export type FeedbackChange = {
    added: Feedback[];
    removed: Feedback[];
    omitted: {
      added: Count;
      removed: Count;
    };
  };

  export type Fidelity = "high" | "auto" | "low";

  /** Seed 004's flat form, accepted on input and decoded into the canonical model. */
  export type FlatReceipt = {
    protocol?: Protocol;
    executionId?: ExecutionId;
    status?: "succeeded" | "failed";
    /** The failure code in lower case. */
    kind?: "action_not_found" | "invalid_args" | "invalid_params" | "stale_revision" | "permission_denied" | "action_unavailable" | "execution_failed" | "step_failed" | "handoff_cancelled" | "handoff_timeout" | "handoff_failed" | "expectation_failed" | "page_crashed" | "page_navigated" | "page_closed" | "runtime_missing" | "protocol_mismatch" | "receipt_invalid" | "call_timeout" | "transport_failed" | "execution_mismatch";
    action?: string;
    revision?: Count;
    previousRevision?: Count;
    currentRevision?: Count;
    expectedRevision?: Count;
    phase?: Phase;
    recoveryStrategy?: RecoveryStrategy;
    recovery?: Recovery;
    target?: { [key: string]: unknown };
    target_id?: string;
    frame_id?: string;
    verification?: {
      revisionDelta?: number;
      urlChanged?: boolean;
      titleChanged?: boolean;
      targetChanged?: boolean;
      frameChanged?: boolean;
      /** An extension field (CONTRACT.md §4.3). */
      [extension: string]: unknown;
    };
    /** An extension field (CONTRACT.md §4.3). */
    [extension: string]: unknown;
  } & (
    | {
      status: "succeeded";
      action: string;
      expectedRevision?: never;
      kind?: never;
      phase?: never;
      recovery?: never;
      recoveryStrategy?: never;
    }
    | {
      status: "failed";
      kind: "action_not_found" | "invalid_args" | "invalid_params" | "stale_revision" | "permission_denied" | "action_unavailable" | "execution_failed" | "step_failed" | "handoff_cancelled" | "handoff_timeout" | "handoff_failed" | "expectation_failed" | "page_crashed" | "page_navigated" | "page_closed" | "runtime_missing" | "protocol_mismatch" | "receipt_invalid" | "call_timeout" | "transport_failed" | "execution_mismatch";
    }
    | {
      status?: never;
    }
  );

  /** A change of page identity. */
  export type PageChange = {
    url?: Transition;
    title?: Transition;
    id?: Transition;
  };

  /** The phase a failure belongs to (CONTRACT.md, "Error codes"). */
  export type Phase = "policy" | "preflight" | "target_resolution" | "dispatch" | "browser_effect" | "verification" | "transport";

  /** The page protocol version. */
  export type Protocol = "glass.page/v1";

  export type RecordChanges = {
    added: string[];
    removed: string[];
    updated: UpdatedRecord[];
    reordered: boolean;
    omitted: {
      added: Count;
      removed: Count;
      updated: Count;
    };
    total?: {
      from: Count;
      to: Count;
    };
  };

  /** A bounded suggestion of what to do next (observe, inspect, prerequisite). */
  export type Recovery = string;

  /** Seed 004's explicit recovery policy. */
  export type RecoveryStrategy = "none" | "report" | "retry_safe";

  /** The lifecycle receipt of seed 000: what ran, what was verified, what changed, and where a failure occurred. Fields not listed here are extension fields and are kept. */
  export type Result = {
    /** The execution path returned without an error. */
    ok: boolean;
    action?: Action;
    /** The declared success condition, observed true during this call. */
    expect?: BoundedText;
    changed?: Changed;
    /** Reported for an element action whose fidelity is not high. */
    fidelity?: Fidelity;
    /** A successful call that still needs interpretation. */
    warning?: BoundedText;
    /** The bounded business result of a function action (CONTRACT.md, "Bounded data"). */
    data?: unknown;
    /** The step ledger of a flow. */
    steps?: Step[];
    /** The handle that continues a failed flow from its failed step. */
    resume?: string;
    error?: Error;
    /** An extension field (CONTRACT.md §4.3). */
    [extension: string]: unknown;
  } & (
    | {
      ok: true;
      action: Action;
      error?: never;
    }
    | {
      ok: false;
      error: Error;
    }
  );

  /** The page revision before stage 6 (or at the failure) and after the report. */
  export type Revision = {
    before: Count;
    after: Count;
  };

  export type Risk = "read" | "write" | "dangerous";

  export type StateChanges = {
    changed: string[];
    omitted: Count;
  };

  /** One entry of a flow's step ledger. */
  export type Step = {
    index: Count;
    id: string;
    outcome: "ok" | "failed" | "pending" | "skipped";
    error?: Error;
  } & (
    | {
      outcome: "failed";
      error: Error;
    }
    | {
      outcome: "ok" | "pending" | "skipped";
      error?: never;
    }
  );

  export type Transition = {
    from: BoundedText;
    to: BoundedText;
  };

  export type UpdatedRecord = {
    id: string;
    fields: string[];
  };
}

/** Glass snapshot (protocol glass.page/v1) */
export declare namespace snapshot {
  /** The page model a runtime exposes to an agent: page identity, bounded records with their fields, the actions declared now, state views and feedback. Fields not listed at the top level or in an action descriptor are extension fields and are kept. */
  export type Snapshot = {
    protocol: Protocol;
    /** The runtime's name and version, informative. */
    runtime?: string;
    /** The page revision: it never decreases and grows whenever the page model differs from the one last observed. */
    revision: Count;
    page: {
      id: string;
      url: string;
      title: string;
    };
    records: {
      /** How many records the page holds. */
      total: Count;
      items: Record[];
      omitted: Count;
    };
    actions: {
      items: ActionInfo[];
      omitted: Count;
    };
    /** State views: named values the page exposes (a filter, a selection). */
    state: { [key: string]: unknown };
    feedback: Feedback[];
    /** An extension field (CONTRACT.md §4.3). */
    [extension: string]: unknown;
  };

  /** One declared action as an agent sees it. */
  export type ActionInfo = {
    id: string;
    description: string;
    kind: "element" | "function" | "flow" | "handoff";
    risk: Risk;
    /** True when a call asks the host for confirmation. */
    confirm: boolean;
    /** The JSON Schema of the arguments. */
    params?: { [key: string]: unknown };
    available: boolean;
    /** Why the action is unavailable. */
    reason?: string;
    fidelity?: Fidelity;
    /** The declared expectation's description. */
    expect?: string;
    /** The folded tool name of a per-row action. */
    tool?: string;
    /** The record of a per-row action. */
    record?: string;
    /** A flow's step action ids, in order. */
    steps?: string[];
    /** True for an action only a flow may run: no tool of its own; a direct call fails ACTION_UNAVAILABLE. */
    stepOnly?: boolean;
    /** An extension field (CONTRACT.md §4.3). */
    [extension: string]: unknown;
  };

  /** Text a receipt carries about a failure or its evidence; bounded (CONTRACT.md, "Bounds"). */
  export type BoundedText = string;

  /** A revision, count or index: a non-negative integer a JavaScript number holds exactly. */
  export type Count = number;

  /** One message the page shows its user: a toast, a banner, an inline error. */
  export type Feedback = {
    kind: string;
    text: BoundedText;
  };

  export type Fidelity = "high" | "auto" | "low";

  /** The page protocol version. */
  export type Protocol = "glass.page/v1";

  /** One business record with its visible fields. */
  export type Record = {
    id: string;
    fields: { [key: string]: unknown };
  };

  export type Risk = "read" | "write" | "dangerous";
}

// ---- end of generated types
