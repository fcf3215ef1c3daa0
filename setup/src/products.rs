//! Where each product keeps its settings, and what askdesk puts there: a
//! table of data, so that a new hook or a new file is a new row.

mod entries;
mod files;
mod opencode;
pub use entries::STOP_SECONDS;
use entries::{
    CLAUDE_CODE_HOOKS, CLAUDE_CODE_HOOKS_ASKING_ON_STOP, CLAUDE_CODE_SERVER, CLAUDE_CODE_STOP,
    CODEX_HOOKS, CODEX_HOOKS_NOTE, CODEX_SERVER, CURSOR_SERVER, RESTART,
};
use files::{hooks_file, server_file};

/// An agent product askdesk can set itself up in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// OpenAI's Codex.
    Codex,
    /// The Cursor editor.
    Cursor,
    /// OpenCode, by its plugin, which starts `askdesk opencode`.
    OpenCode,
}

/// Whose settings: the user's own, or the current project's (files meant to
/// be committed with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The user's settings, for every project.
    User,
    /// The project's settings, in the current directory.
    Project,
}

/// The folder a settings file's path starts from. The caller knows where
/// each is; this crate reads no environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// The user's home folder.
    Home,
    /// The folder of Claude Code's global `.claude.json`:
    /// `$CLAUDE_CONFIG_DIR`, by default the home folder.
    ClaudeGlobal,
    /// Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, by default
    /// `~/.claude`.
    ClaudeConfig,
    /// Codex's own folder: `$CODEX_HOME`, by default `~/.codex`.
    CodexHome,
    /// OpenCode's own folder: `$XDG_CONFIG_HOME/opencode`, by default
    /// `~/.config/opencode`.
    OpenCodeConfig,
    /// The project's folder, the current directory.
    Project,
}

/// How a settings file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Strict JSON: the product reads nothing else, so a comment is an
    /// error to report, not something to keep.
    Json,
    /// JSON with comments, which the product accepts and askdesk keeps.
    Jsonc,
    /// TOML; its comments are kept.
    Toml,
    /// A file askdesk writes whole and owns: this plugin.
    Whole(Plugin),
}

/// One settings file of a product, and what askdesk puts in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsFile {
    /// Where its path starts.
    pub root: Root,
    /// Its path below the root.
    pub path: &'static str,
    pub format: Format,
    /// askdesk's MCP server entry, when this file holds MCP servers.
    pub server: Option<McpServer>,
    /// askdesk's hooks in this file, in the Claude Code settings shape
    /// (`hooks` → event → matcher groups → commands).
    pub hooks: &'static [Hook],
    /// What the person should know once the file is written.
    pub note: Option<&'static str>,
}

/// A plugin askdesk writes whole into a product's plugin folder: a script
/// that runs this askdesk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plugin {
    /// Its text: its first line says it is askdesk's, and
    /// [`Plugin::PROGRAM`] stands where the binary's path goes, as a
    /// JSON string.
    pub template: &'static str,
}

impl Plugin {
    /// What the template holds in the binary's place.
    pub const PROGRAM: &'static str = "\"{program}\"";
}

/// The name of askdesk's entry among a file's MCP servers.
pub const SERVER_NAME: &str = "askdesk";

/// askdesk's MCP server entry in one file: the table of servers it goes in
/// and the fields askdesk sets. Fields a person added beside them stay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServer {
    /// The key of the servers' table: `mcpServers` or `mcp_servers`.
    pub table: &'static str,
    pub fields: &'static [Field],
}

/// One field of askdesk's MCP server entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub key: &'static str,
    pub value: FieldValue,
}

/// A field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValue {
    /// The askdesk binary's absolute path.
    Program,
    /// A list: the binary's path, then these arguments.
    ProgramWith(&'static [&'static str]),
    Text(&'static str),
    Texts(&'static [&'static str]),
    Integer(i64),
}

/// What `askdesk setup` adds beyond the defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Claude Code's `Stop` hook: "what next?" at the desk whenever the
    /// agent finishes its turn.
    pub ask_on_stop: bool,
}

impl Options {
    /// The options a file's askdesk entries (`found`) were written with:
    /// Claude Code's Stop hook is there only when the person asked for it.
    pub fn of(found: &[crate::Found]) -> Options {
        Options {
            ask_on_stop: found
                .iter()
                .any(|f| f.entry == crate::Entry::Hook(CLAUDE_CODE_STOP)),
        }
    }
}

/// One hook: a command the product runs on an event, the askdesk binary
/// with `args`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hook {
    /// The event, such as `PreToolUse`.
    pub event: &'static str,
    /// The tools it applies to; `None` for events without a matcher.
    pub matcher: Option<&'static str>,
    /// askdesk's arguments, such as `hook claude-code`.
    pub args: &'static [&'static str],
    /// Seconds the product lets it run: people take their time.
    pub timeout: u32,
}

impl Product {
    /// Every product, in the order the command line lists them.
    pub const ALL: [Product; 4] = [
        Product::ClaudeCode,
        Product::Codex,
        Product::Cursor,
        Product::OpenCode,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Product::ClaudeCode => "claude-code",
            Product::Codex => "codex",
            Product::Cursor => "cursor",
            Product::OpenCode => "opencode",
        }
    }

    /// Its name for people.
    pub fn title(self) -> &'static str {
        match self {
            Product::ClaudeCode => "Claude Code",
            Product::Codex => "Codex",
            Product::Cursor => "Cursor",
            Product::OpenCode => "OpenCode",
        }
    }

    /// The product named `name` on the command line.
    pub fn from_name(name: &str) -> Option<Product> {
        Product::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The files askdesk writes for this product in `scope`, MCP first.
    pub fn files(self, scope: Scope) -> Vec<SettingsFile> {
        self.files_with(scope, Options::default())
    }

    /// The same with `options`: Claude Code's Stop hook with
    /// [`Options::ask_on_stop`].
    pub fn files_with(self, scope: Scope, options: Options) -> Vec<SettingsFile> {
        let claude_code_hooks = if options.ask_on_stop {
            CLAUDE_CODE_HOOKS_ASKING_ON_STOP
        } else {
            CLAUDE_CODE_HOOKS
        };
        match (self, scope) {
            // User-scoped servers are the top-level `mcpServers` of
            // ~/.claude.json (per-project ones sit under `projects`);
            // hooks live in the settings files. `$CLAUDE_CONFIG_DIR` moves
            // both into its folder.
            (Product::ClaudeCode, Scope::User) => vec![
                server_file(
                    Root::ClaudeGlobal,
                    ".claude.json",
                    Format::Json,
                    CLAUDE_CODE_SERVER,
                    Some(RESTART),
                ),
                hooks_file(Root::ClaudeConfig, "settings.json", claude_code_hooks, None),
            ],
            (Product::ClaudeCode, Scope::Project) => vec![
                server_file(
                    Root::Project,
                    ".mcp.json",
                    Format::Json,
                    CLAUDE_CODE_SERVER,
                    Some("Claude Code asks once before it starts a project's MCP servers"),
                ),
                hooks_file(
                    Root::Project,
                    ".claude/settings.json",
                    claude_code_hooks,
                    None,
                ),
            ],
            (Product::Codex, Scope::User) => vec![
                server_file(
                    Root::CodexHome,
                    "config.toml",
                    Format::Toml,
                    CODEX_SERVER,
                    Some(RESTART),
                ),
                hooks_file(
                    Root::CodexHome,
                    "hooks.json",
                    CODEX_HOOKS,
                    Some(CODEX_HOOKS_NOTE),
                ),
            ],
            (Product::Codex, Scope::Project) => {
                vec![
                server_file(
                    Root::Project,
                    ".codex/config.toml",
                    Format::Toml,
                    CODEX_SERVER,
                    Some("Codex reads a project's .codex/ files only once the project is trusted"),
                ),
                hooks_file(Root::Project, ".codex/hooks.json", CODEX_HOOKS, Some(CODEX_HOOKS_NOTE)),
            ]
            }
            (Product::Cursor, scope) => vec![server_file(
                match scope {
                    Scope::User => Root::Home,
                    Scope::Project => Root::Project,
                },
                ".cursor/mcp.json",
                Format::Jsonc,
                CURSOR_SERVER,
                Some(RESTART),
            )],
            (Product::OpenCode, scope) => opencode::files(scope),
        }
    }
}
