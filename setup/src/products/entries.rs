//! What askdesk writes for Claude Code, Codex and Cursor: their MCP
//! server entries and hooks, as data.

use super::{Field, FieldValue, Hook, McpServer};

/// A day: how long a hook or a tool call may wait for a person.
const A_DAY: u32 = 86_400;

/// The stdio server `askdesk mcp`, as Claude Code's own `claude mcp add`
/// writes one.
pub(super) const CLAUDE_CODE_SERVER: McpServer = McpServer {
    table: "mcpServers",
    fields: &[
        Field {
            key: "type",
            value: FieldValue::Text("stdio"),
        },
        Field {
            key: "command",
            value: FieldValue::Program,
        },
        Field {
            key: "args",
            value: FieldValue::Texts(&["mcp"]),
        },
    ],
};

/// Codex stops waiting for a tool after its `tool_timeout_sec`, a minute
/// unless set.
pub(super) const CODEX_SERVER: McpServer = McpServer {
    table: "mcp_servers",
    fields: &[
        Field {
            key: "command",
            value: FieldValue::Program,
        },
        Field {
            key: "args",
            value: FieldValue::Texts(&["mcp"]),
        },
        Field {
            key: "tool_timeout_sec",
            value: FieldValue::Integer(A_DAY as i64),
        },
    ],
};

pub(super) const CURSOR_SERVER: McpServer = McpServer {
    table: "mcpServers",
    fields: &[
        Field {
            key: "command",
            value: FieldValue::Program,
        },
        Field {
            key: "args",
            value: FieldValue::Texts(&["mcp"]),
        },
    ],
};

/// Claude Code's hooks: its own `AskUserQuestion` goes to the desk, and
/// so do its permission prompts, every tool's, and other MCP servers'
/// forms (one command takes them all).
pub(super) const CLAUDE_CODE_HOOKS: &[Hook] = &[
    ASK_USER_QUESTION,
    CLAUDE_CODE_PERMISSION,
    CLAUDE_CODE_ELICITATION,
];

/// The same, and "what next?" at the desk whenever the agent stops
/// (`--ask-on-stop`).
pub(super) const CLAUDE_CODE_HOOKS_ASKING_ON_STOP: &[Hook] = &[
    ASK_USER_QUESTION,
    CLAUDE_CODE_PERMISSION,
    CLAUDE_CODE_ELICITATION,
    CLAUDE_CODE_STOP,
];

const ASK_USER_QUESTION: Hook = Hook {
    event: "PreToolUse",
    matcher: Some("AskUserQuestion"),
    args: &["hook", "claude-code"],
    timeout: A_DAY,
};

const CLAUDE_CODE_PERMISSION: Hook = Hook {
    event: "PermissionRequest",
    matcher: Some("*"),
    args: &["hook", "claude-code"],
    timeout: A_DAY,
};

/// Another MCP server asks for a form, any server's.
const CLAUDE_CODE_ELICITATION: Hook = Hook {
    event: "Elicitation",
    matcher: None,
    args: &["hook", "claude-code"],
    timeout: A_DAY,
};

/// The agent finished its turn: the ask "what next?" expires after an
/// hour, and the agent stops, so the hook may run that long.
pub(super) const CLAUDE_CODE_STOP: Hook = Hook {
    event: "Stop",
    matcher: None,
    args: &["hook", "claude-code"],
    timeout: STOP_SECONDS as u32,
};

/// How long "what next?" waits for a person before the agent stops.
pub const STOP_SECONDS: u64 = 3_600;

/// Codex's hooks, in its `hooks.json` of Claude Code's shape: its approval
/// prompts, every tool's, go to the desk; so do the questions of its
/// `request_user_input` tool (plan mode), whose answer goes back as the
/// hook's reason, since a hook cannot give a tool its result.
pub(super) const CODEX_HOOKS: &[Hook] = &[
    Hook {
        event: "PermissionRequest",
        matcher: Some("*"),
        args: &["hook", "codex"],
        timeout: A_DAY,
    },
    Hook {
        event: "PreToolUse",
        matcher: Some("^request_user_input$"),
        args: &["hook", "codex"],
        timeout: A_DAY,
    },
];

/// Codex releases before hooks were on by default run none without it.
pub(super) const CODEX_HOOKS_NOTE: &str =
    "a Codex from before hooks were on by default runs them only with `codex_hooks = true` under `[features]` in config.toml";

pub(super) const RESTART: &str = "restart the agent (or start a new session) to load it";
