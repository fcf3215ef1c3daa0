use anyhow::Context;
use clap::Parser;
use server::cli::{
    backup,
    config::{Cli, Command, Hook, LogFormat, OpencodeArgs, ServeArgs, ServeSettings, SetupTarget},
    people,
    run::{self, StartError},
    shell, stdio,
};
use std::{process::ExitCode, time::Instant};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

/// The site as `scripts/dev.sh` lays it out in `target/site`, embedded in
/// release builds (read from that folder at run time in debug builds). Here
/// in the binary, so that the library compiles before the site is built
/// (xtask builds the two side by side) and a new site recompiles only this
/// file; the library reads it through `assets::build_in`.
#[derive(rust_embed::RustEmbed)]
#[folder = "../target/site"]
#[allow_missing = true]
struct Site;

/// The site's files: their paths below the site, and their bytes.
fn site_files() -> Vec<(String, Vec<u8>)> {
    Site::iter()
        .filter_map(|path| Some((path.to_string(), Site::get(&path)?.data.into_owned())))
        .collect()
}

/// jemalloc: it keeps its free lists outside the blocks, so memory hyper
/// reserves for each waiting connection and never writes stays unresident
/// (bench/waiters.sh compares allocators). Its settings are built in, from
/// `.cargo/config.toml`.
#[cfg(not(feature = "dhat-heap"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;
/// bench/heap.sh's build: every allocation counted by its site.
#[cfg(feature = "dhat-heap")]
#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Transparent huge pages off for this process, before the runtime's
/// threads start: with them, every touched huge page of the allocator's arenas
/// becomes resident.
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        // Not fatal: only memory use differs.
        eprintln!("askdesk: transparent huge pages stay on ({e})");
    }
}

fn main() -> ExitCode {
    // Writes dhat-heap.json in the working folder when main returns.
    #[cfg(feature = "dhat-heap")]
    let _profiler = dhat::Profiler::new_heap();
    no_transparent_huge_pages();
    server::http::assets::build_in(site_files);
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(run()),
        Err(e) => {
            eprintln!("askdesk: cannot start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> ExitCode {
    match command().await {
        Ok(code) => code,
        // The one place an error is said: its message and its causes
        // ("cannot open …: permission denied").
        Err(e) => {
            eprintln!("askdesk: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the command the command line names.
async fn command() -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Serve(args)) => logged(cli.log_format, serve(args)).await,
        Some(Command::Mcp(args)) => logged(cli.log_format, stdio::run(args)).await,
        Some(Command::Opencode(args)) => Ok(opencode(args).await),
        // stdout is the editor's: nothing but the agent's messages on it.
        Some(Command::Acp(args)) => {
            let code = match agents::acp::run(args.desk.place(), &args.agent).await {
                Ok(code) => code,
                Err(why) => {
                    eprintln!("askdesk acp: {why}");
                    1
                }
            };
            // The agent has ended, and what it said is written: a read of
            // the editor's stdin still waiting must not keep the process.
            std::process::exit(code)
        }
        Some(Command::People(command)) => Ok(people::run(command, cli.serve.database).await?),
        Some(Command::Setup(args)) => match args.product {
            SetupTarget::Agent(product) => Ok(server::cli::setup::run(&args, product)?),
            SetupTarget::Connector(host) => {
                server::cli::setup::connector::run(host, args.url.as_deref()).await
            }
        },
        Some(Command::Doctor(args)) => Ok(server::cli::doctor::run(&args).await?),
        None => logged(cli.log_format, serve(cli.serve)).await,
        // The terminal loop blocks its thread, so it runs where blocking
        // is allowed; its HTTP calls run on this runtime. No log lines
        // here: they would write over the screen, which is on stderr.
        Some(Command::Tui(args)) => {
            let runtime = tokio::runtime::Handle::current();
            in_terminal(move || tui::terminal::queue(args, runtime, started)).await
        }
        Some(Command::Answer(args)) => {
            in_terminal(move || tui::terminal::answer(args, started)).await
        }
        Some(Command::Hook(which)) => Ok(run_hook(which).await),
        Some(Command::Backup { file, database }) => {
            Ok(backup::run(file, database, cli.serve.database).await?)
        }
        Some(Command::Completions { shell }) => {
            shell::completions(shell, &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man) => {
            shell::manual(&mut std::io::stdout()).context("cannot write the manual page")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Stop(args)) => {
            let folder = server::cli::config::data_folder().map_err(|e| e.to_string());
            println!("{}", agents::detached::stop(&args.url, &folder)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// What the log holds unless `RUST_LOG` says otherwise: askdesk's own
/// lines from info up, rmcp's from warn. rmcp's streamable HTTP transport
/// writes whole MCP session ids (a session's only credential besides the
/// token) into its lines and spans, so it writes none under any filter
/// ([`NO_SESSION_IDS`]); askdesk logs what matters of MCP sessions itself,
/// by digest.
const DEFAULT_LOG_FILTER: &str = "info,rmcp=warn";

/// rmcp's streamable HTTP transport, silenced under any filter.
const NO_SESSION_IDS: &str = "rmcp::transport::streamable_http_server=off";

/// Runs a server command with its log on stderr, as `format` says.
async fn logged(
    format: LogFormat,
    command: impl std::future::Future<Output = Result<(), StartError>>,
) -> anyhow::Result<ExitCode> {
    let mut filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG_FILTER));
    // Whatever RUST_LOG asks, rmcp's transport writes no session id.
    if let Ok(quiet) = NO_SESSION_IDS.parse() {
        filter = filter.add_directive(quiet);
    }
    let lines = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        // One JSON object a line, the request's span (and its id) in it.
        LogFormat::Json => lines
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        // Colours for a terminal; a detached desk's log is a file.
        LogFormat::Text => lines
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
    }
    command.await?;
    Ok(ExitCode::SUCCESS)
}

/// Runs a terminal UI off the runtime's worker threads.
async fn in_terminal(
    body: impl FnOnce() -> Result<ExitCode, String> + Send + 'static,
) -> anyhow::Result<ExitCode> {
    tokio::task::spawn_blocking(body)
        .await
        .context("the terminal UI stopped")?
        .map_err(anyhow::Error::msg)
}

/// `askdesk hook claude-code` and `askdesk hook codex`: always exits 0,
/// printing the decision if there is one (a hook that fails lets the agent
/// ask as usual).
async fn run_hook(which: Hook) -> ExitCode {
    use std::io::Read;
    let mut stdin = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut stdin) {
        eprintln!("askdesk hook: cannot read stdin: {e}");
        return ExitCode::SUCCESS;
    }
    let output = match which {
        Hook::ClaudeCode(args) => agents::hook::claude_code(&args.place(), &stdin).await,
        Hook::Codex(args) => agents::hook::codex(&args.place(), &stdin).await,
    };
    if let Some(output) = output {
        println!("{output}");
    }
    ExitCode::SUCCESS
}

async fn serve(args: ServeArgs) -> Result<(), StartError> {
    let settings = ServeSettings::check(args)?;
    let grace = settings.shutdown_grace;
    let shutdown = CancellationToken::new();
    let started = run::start(settings, shutdown.clone()).await?;
    // The one line on stdout: scripts and people read the URL from it.
    println!("askdesk is serving on {}", started.url());
    let mut task = started.task;
    tokio::select! {
        () = shutdown_signal() => {
            started.draining.cancel();
            drain(grace).await;
            shutdown.cancel();
            task.await?;
        }
        // The server stopped by itself: it panicked, an error to report.
        result = &mut task => result?,
    }
    Ok(())
}

/// The grace between the stop signal and the stop: `/readyz` says 503
/// while the server still serves, so a load balancer moves traffic away
/// first. A second signal ends it.
async fn drain(grace: std::time::Duration) {
    if grace.is_zero() {
        return;
    }
    tracing::info!(
        seconds = grace.as_secs(),
        "stopping: /readyz answers 503 until the server stops"
    );
    tokio::select! {
        () = tokio::time::sleep(grace) => {}
        () = shutdown_signal() => {}
    }
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// `askdesk opencode`: the bridge, until it fails or, with
/// `--until-stdin-closes`, until the plugin that started it is gone.
/// OpenCode's own variables give the server's login, as to its clients.
async fn opencode(args: OpencodeArgs) -> ExitCode {
    let login = std::env::var("OPENCODE_SERVER_PASSWORD")
        .ok()
        .filter(|password| !password.is_empty())
        .map(|password| {
            let user = std::env::var("OPENCODE_SERVER_USERNAME")
                .ok()
                .filter(|user| !user.is_empty())
                .unwrap_or_else(|| "opencode".to_owned());
            (user, password)
        });
    let server = agents::opencode::Server {
        url: args.server,
        login,
    };
    let bridge = agents::opencode::run(args.desk.place(), server);
    let closed = async {
        if args.until_stdin_closes {
            let mut sink = tokio::io::sink();
            let _ = tokio::io::copy(&mut tokio::io::stdin(), &mut sink).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        ended = bridge => match ended {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => {
                eprintln!("askdesk opencode: {why}");
                ExitCode::FAILURE
            }
        },
        () = closed => ExitCode::SUCCESS,
    }
}
