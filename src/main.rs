//! The `bulwark` command line: the only code that prints or picks exit codes.

// No function longer than 100 lines (`clippy.toml`), tables aside.
#![warn(clippy::too_many_lines)]

use std::process::ExitCode;
use std::sync::Arc;

mod terminal;

use bulwark::load::{BundledCopy, LoadError, LoadOptions};
use bulwark::play::Game;
use bulwark::search::{AgentSpec, selfplay};
use bulwark::text::{self, PositionError};
use bulwark::view;
use bulwark::vm::Stop;
use bulwark::{Position, Ruleset};
use clap::{Parser, Subcommand, ValueEnum};
use miette::{Diagnostic, LabeledSpan, NamedSource, SourceSpan};

/// A rules interpreter for chess-like games. VARIANT is a path to a variant file or a bundled
/// name (bollwerk178) and defaults to bollwerk178.
#[derive(Parser)]
#[command(name = "bulwark", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Where a command starts: the variant, and the position it acts on.
#[derive(clap::Args)]
struct Start {
    /// Variant file or bundled name.
    variant: Option<String>,
    /// Position text (defaults to the variant's start position).
    #[arg(long)]
    position: Option<String>,
    /// Turns in move text, played in order from the position before the command acts.
    #[arg(long)]
    history: Option<String>,
}

impl Start {
    /// The game at this position of `rules` (loaded from [`Start::variant`]).
    /// Its programs run under `stop` (the command's).
    fn game<'r>(&self, rules: &'r Ruleset, stop: &Arc<Stop>) -> Result<Game<'r>, ExitCode> {
        game_at(
            rules,
            self.position.as_deref(),
            self.history.as_deref(),
            stop,
        )
    }
}

#[derive(Subcommand)]
enum Command {
    /// Load, validate and compile a variant; print a summary.
    Check {
        /// Variant file or bundled name.
        variant: Option<String>,
    },
    /// The rulebook-style diagram of the piece on a cell.
    Diagram {
        #[command(flatten)]
        start: Start,
        /// The piece's cell, e.g. G7.
        #[arg(long)]
        at: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// All legal turns of the side to move, one canonical move text a line.
    Moves {
        #[command(flatten)]
        start: Start,
        /// Print a JSON array of strings.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaf nodes of the legal turn tree.
    Perft {
        #[command(flatten)]
        start: Start,
        /// How many turns deep (at most 64).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
        depth: u32,
        /// First print each root turn with its count.
        #[arg(long)]
        divide: bool,
        /// Threads (default: every core); the count is the same whatever the number.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        jobs: Option<u32>,
        /// Print {"depth":N,"nodes":N,"seconds":S}.
        #[arg(long)]
        json: bool,
    },
    /// Play in the terminal: two humans, a human against the computer, or two computers.
    /// Type `help` during the game for the commands (moves, undo, save, load, …).
    Play {
        #[command(flatten)]
        start: Start,
        /// Who plays White: human, or an agent: computer (the searching agent), search,
        /// search:20000n (a node budget), random, mcts:2000.
        #[arg(long, default_value = "human", value_parser = player)]
        white: Seat,
        /// Who plays Black: human or an agent, as for --white.
        #[arg(long, default_value = "human", value_parser = player)]
        black: Seat,
        /// Seed of the computer's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop after this many turns (not a rule of the game, B-63).
        #[arg(long)]
        max_turns: Option<u32>,
    },
    /// Write the rulebook: an HTML page with every piece's definition, its empty-board
    /// diagram and its scenario diagrams (SVG), computed from the variant file.
    Rulebook {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// Folder to write index.html and the SVG files into.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Scenario files (repeat for several); by default the bundled scenarios of the variant
        /// or of the variant it extends.
        #[arg(long)]
        scenarios: Vec<std::path::PathBuf>,
    },
    /// A board in the browser: click a piece to see its diagram, play (against the computer
    /// too), and edit the variant text with its diagnostics shown live. Listens on 127.0.0.1
    /// unless --host says otherwise; prints the page's address.
    Serve {
        /// Variant file or bundled name: what a new game plays.
        variant: Option<String>,
        /// The port (0: any free one).
        #[arg(long, default_value_t = 7178)]
        port: u16,
        /// The address to listen on. The default, 127.0.0.1, lets only this machine in.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Follow the variant file on disk: when it changes, open pages reload it and show its
        /// diagnostics (a bundled name follows variants/NAME.toml in a checkout).
        #[arg(long)]
        watch: bool,
        /// Another host name the server answers to (repeat for several), for example the
        /// machine's name when it listens on 0.0.0.0; requests naming any other host get 421.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_host: Vec<String>,
    },
    /// What changes from rule set A to rule set B: every piece's diagrams (empty board, start
    /// cells, scenarios) cell by cell, the first turns and perft 2 from the start.
    Diff {
        /// The first variant (file or bundled name).
        a: String,
        /// The second variant (file or bundled name).
        b: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// Folder for `--format html` (index.html and the pictures).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Scenario files to compare as well (the first variant's bundled ones by default).
        #[arg(long)]
        scenarios: Vec<std::path::PathBuf>,
        /// Skip perft 2 (which takes about a second per Bollwerk 178 rule set).
        #[arg(long)]
        no_perft: bool,
    },
    /// Every diagram of a variant (each piece on an empty board and from its start cells, every
    /// scenario) against its stored text snapshots: prints each one that changed, is new or is
    /// gone, and exits 1 if any did. With --accept, stores them instead.
    Snapshots {
        /// Variant file or bundled name.
        variant: String,
        /// Store every diagram as it is now (and remove snapshots no longer drawn).
        #[arg(long)]
        accept: bool,
        /// Folder of the snapshots (default: `NAME.snapshots` beside the file; for a bundled
        /// name, in the current folder).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Whether the game is over: `ongoing`, or the result and its reason.
    Status {
        #[command(flatten)]
        start: Start,
        /// Print {"result":"white"|"black"|"draw"|null,"reason":"…"}.
        #[arg(long)]
        json: bool,
    },
    /// Self-play: many games between two agents, with statistics (results with 95%
    /// intervals, length, branching, piece use, how games ended).
    Match {
        /// Variant file or bundled name.
        variant: Option<String>,
        #[command(flatten)]
        study: Study,
    },
    /// Add up the JSON results of `match --json` (shards of one study).
    Merge {
        /// Files with one `match --json` result each (its last line).
        files: Vec<std::path::PathBuf>,
        /// Print the merged JSON instead of the report.
        #[arg(long)]
        json: bool,
    },
    /// The same self-play on two rule sets, side by side, significant differences marked.
    Compare {
        /// The first variant (file or bundled name).
        a: String,
        /// The second variant (file or bundled name).
        b: String,
        #[command(flatten)]
        study: Study,
    },
    /// Show the bytecode the compiler produced.
    Compile {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// Only this piece (id, name or letter).
        #[arg(long)]
        piece: Option<String>,
    },
    /// Speak the Universal Chess Interface on stdin and stdout, for GUIs and match runners
    /// (options `UCI_Variant`, `VariantFile`, `UCI_Chess960`, Hash).
    Uci {
        /// The variant to start with (a bundled name or a file; the UCI options can change it).
        variant: Option<String>,
    },
}

/// The options of a self-play study.
#[derive(clap::Args, Clone)]
struct Study {
    /// Position text to start every game from (defaults to the variant's start position).
    #[arg(long)]
    position: Option<String>,
    /// Turns in move text played before every game.
    #[arg(long)]
    history: Option<String>,
    /// Games in the whole study.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// White's agent: random, search[:MS|:Nn], mcts[:PLAYOUTS|:MSms].
    #[arg(long, default_value = "search", value_parser = agent)]
    white: AgentSpec,
    /// Black's agent (default: random for `match`, search for `compare`).
    #[arg(long, value_parser = agent)]
    black: Option<AgentSpec>,
    /// Random legal plies opening each game, from the seed; games then come in pairs from one
    /// opening, the agents swapping colours in the second (default: 0 and unpaired for
    /// `match`, 4 for `compare`).
    #[arg(long)]
    openings: Option<u32>,
    /// Openings from a file instead of random plies: one a line, turns in move text from the
    /// start (as --history), used in order and again from the first when there are fewer
    /// lines than openings.
    #[arg(long)]
    openings_file: Option<std::path::PathBuf>,
    /// Play every game to the rules or the turn limit: no adjudication (by default a side
    /// ahead by the most valuable kind's value for 8 turns wins, and 100 turns without a
    /// capture or change of kind draw).
    #[arg(long)]
    no_adjudication: bool,
    /// `compare`: a sequential test that stops as soon as the answer is clear (at most
    /// --games games per rule set).
    #[arg(long)]
    sprt: bool,
    /// `compare --sprt`: the difference in White's score it looks for.
    #[arg(long, default_value_t = 0.1)]
    sprt_delta: f64,
    /// Write every game as PGN (Variant, FEN and Result tags; moves in SAN), for games
    /// without stones.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// `compare`: write a report page, DIR/index.html.
    #[arg(long)]
    html: Option<std::path::PathBuf>,
    /// The study's seed: the same seed plays the same games whatever the number of jobs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Turns after which a game counts as unfinished.
    #[arg(long, default_value_t = 300)]
    max_turns: u32,
    /// Games played at once (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only shard I of N (the games whose number is I-1 modulo N).
    #[arg(long, value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// Write every game, one a line in move text (readable by `play --history`).
    #[arg(long)]
    games_out: Option<std::path::PathBuf>,
    /// Print the result as JSON (last line).
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    Text,
    Json,
    Html,
}

/// Who plays a side: a human (`None`) or an agent.
#[derive(Clone, Copy)]
struct Seat(Option<AgentSpec>);

/// `human`, or an agent.
fn player(s: &str) -> Result<Seat, String> {
    if s == "human" {
        Ok(Seat(None))
    } else {
        AgentSpec::parse(s)
            .map(|a| Seat(Some(a)))
            .map_err(|e| e.to_string())
    }
}

/// An agent.
fn agent(s: &str) -> Result<AgentSpec, String> {
    AgentSpec::parse(s).map_err(|e| e.to_string())
}

/// `I/N`: this shard of how many.
fn shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Svg,
}

/// Bad input given on the command line, pointing into the argument.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct InputError {
    message: String,
    src: NamedSource<String>,
    span: Option<(usize, usize)>,
    help: String,
}

impl Diagnostic for InputError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("bulwark::input"))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.span.map(|_| &self.src as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (a, b) = self.span?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some("here".into()),
            SourceSpan::new(a.into(), b.saturating_sub(a).max(1)),
        ))))
    }
}

/// Writes to standard output. A reader that went away (`bulwark moves | head -1`) ends the
/// command quietly with success; any other write error is exit 1.
fn emit(args: std::fmt::Arguments<'_>) -> Result<(), ExitCode> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args).map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            ExitCode::SUCCESS
        } else {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::from(1)
        }
    })
}

/// `print!` that ends the command on a closed pipe (see [`emit`]).
macro_rules! out {
    ($($t:tt)*) => { emit(format_args!($($t)*))? };
}

/// `println!` that ends the command on a closed pipe (see [`emit`]).
macro_rules! outln {
    () => { emit(format_args!("\n"))? };
    ($($t:tt)*) => {{ emit(format_args!($($t)*))?; emit(format_args!("\n"))?; }};
}

/// Reports a definition that ran away during generation (exit 1).
fn runaway(rules: &Ruleset, r: bulwark::vm::Runaway) -> ExitCode {
    eprintln!("error: {}\nhelp: {}", r.message(rules), r.help(rules));
    ExitCode::from(1)
}

/// Fails with the runaway the game ran into, if any.
fn no_runaway(game: &Game<'_>) -> Result<(), ExitCode> {
    match game.runaway() {
        Some(r) => Err(runaway(game.rules, r)),
        None => Ok(()),
    }
}

fn fail(d: &dyn Diagnostic) -> ExitCode {
    eprint!("{}", view::diagnostic_text(d));
    ExitCode::from(1)
}

fn load(variant: Option<&str>) -> Result<Ruleset, ExitCode> {
    load_checked(variant).map(|(rules, _)| rules)
}

/// Loads as the command line does (an edited checkout copy of a bundled name wins), saying
/// which file a bundled name read when it was such a copy.
fn load_checked(
    variant: Option<&str>,
) -> Result<(Ruleset, Option<bulwark::VariantErrors>), ExitCode> {
    let mut notes = Vec::new();
    let loaded = Ruleset::load_with(
        variant.unwrap_or("bollwerk178"),
        &LoadOptions::command_line(),
        &mut notes,
    );
    print_notes(notes);
    loaded.map_err(|e: LoadError| fail(&e))
}

/// Says which file a bundled name read, when it was an edited checkout copy.
fn print_notes(notes: impl IntoIterator<Item = String>) {
    for n in notes {
        eprintln!("note: {n}");
    }
}

fn position(rules: &Ruleset, text: Option<&str>) -> Result<Position, ExitCode> {
    match text {
        None => Ok(rules.setup.clone()),
        Some(t) => text::parse_position(rules, t).map_err(|e: PositionError| {
            fail(&InputError {
                message: format!("bad --position: {e}"),
                src: NamedSource::new("--position", t.to_string()),
                span: e.range,
                help: position_help(rules),
            })
        }),
    }
}

/// A game from a position (already checked when its text was read; a refusal here is still
/// reported, not a panic).
fn new_game<'r>(rules: &'r Ruleset, pos: Position, stop: &Arc<Stop>) -> Result<Game<'r>, ExitCode> {
    Game::new(rules, pos).map(|g| g.under(stop)).map_err(|u| {
        eprintln!("error: bad --position: {}", u.text(rules));
        ExitCode::from(1)
    })
}

/// A game at `--position` (or the start) after the `--history` turns.
fn game_at<'r>(
    rules: &'r Ruleset,
    ptext: Option<&str>,
    history: Option<&str>,
    stop: &Arc<Stop>,
) -> Result<Game<'r>, ExitCode> {
    let pos = position(rules, ptext)?;
    let mut game = new_game(rules, pos, stop)?;
    let Some(h) = history else {
        return Ok(game);
    };
    // Turns are separated by any white space (spaces, tabs, newlines).
    let parts = text::words(h);
    if parts.len() > bulwark::play::MAX_HISTORY_TURNS {
        return Err(fail(&InputError {
            message: format!(
                "bad --history: {} turns; the most is {}",
                parts.len(),
                bulwark::play::MAX_HISTORY_TURNS
            ),
            src: NamedSource::new("--history", h.to_string()),
            span: None,
            help: "start from a position text (--position) nearer to the turns that matter".into(),
        }));
    }
    for (index, (start, part)) in parts.into_iter().enumerate() {
        let index = index + 1;
        let turn = text::parse_turn(&mut game, part);
        no_runaway(&game)?;
        match turn {
            Ok(t) => game.play(&t),
            Err(e) => {
                return Err(fail(&InputError {
                    message: format!(
                        "bad --history: turn {index} `{part}` is not legal: {}",
                        e.reason
                    ),
                    src: NamedSource::new("--history", h.to_string()),
                    span: Some((start, start + part.len())),
                    help: "give the turns in move text, separated by spaces, each legal after the ones before it (`bulwark moves` lists them)".into(),
                }));
            }
        }
    }
    Ok(game)
}

/// The shape of the variant's position text, for help texts.
fn position_help(rules: &Ruleset) -> String {
    use bulwark::rules::PositionField as F;
    let mut shape = String::from("BOARD SIDE");
    for f in &rules.fields {
        shape.push(' ');
        shape.push_str(match f {
            F::Supplies => "SUPPLIES",
            F::Taboo => "TABOO",
            F::Castling => "CASTLING",
            F::EnPassant => "EN-PASSANT",
            F::Checks => "CHECKS",
            F::Halfmove => "HALFMOVE",
            F::Fullmove => "FULLMOVE",
        });
    }
    format!(
        "position text of {} is {shape} (ranks from the highest, `/` between them); its start: {}",
        rules.name,
        text::write_position(rules, &rules.setup)
    )
}

/// Runs the command, every program in it under `stop`.
fn run(cli: Cli, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    match cli.command {
        None => overview(stop),
        Some(Command::Check { variant }) => check(variant, stop),
        Some(Command::Diagram { start, at, format }) => diagram(&start, &at, format, stop),
        Some(Command::Moves { start, json }) => moves(&start, json, stop),
        Some(Command::Perft {
            start,
            depth,
            divide,
            jobs,
            json,
        }) => perft(&start, depth, divide, jobs, json, stop),
        Some(Command::Play {
            start,
            white,
            black,
            seed,
            max_turns,
        }) => play(&start, white, black, seed, max_turns, stop),
        Some(Command::Match { variant, study }) => run_match(variant, &study, stop),
        Some(Command::Merge { files, json }) => merge(&files, json),
        Some(Command::Compare { a, b, study }) => compare(&a, &b, &study, stop),
        Some(Command::Status { start, json }) => status(&start, json, stop),
        Some(Command::Rulebook {
            variant,
            out,
            scenarios,
        }) => rulebook(variant, out, scenarios, stop),
        Some(Command::Compile { variant, piece }) => compile(variant, piece),
        Some(Command::Uci { variant }) => {
            uci(variant, stop);
            Ok(())
        }
        Some(Command::Diff {
            a,
            b,
            format,
            out,
            scenarios,
            no_perft,
        }) => diff(&a, &b, format, out, &scenarios, no_perft, stop),
        Some(Command::Snapshots {
            variant,
            accept,
            dir,
        }) => snapshots(&variant, accept, dir, stop),
        Some(Command::Serve {
            variant,
            port,
            host,
            watch,
            allow_host,
        }) => serve(variant, host, port, watch, allow_host, stop),
    }
}

/// `bulwark serve`: loads the variant (it must load), then serves until stopped.
fn serve(
    variant: Option<String>,
    host: std::net::IpAddr,
    port: u16,
    watch: bool,
    hosts: Vec<String>,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    let arg = variant.as_deref().unwrap_or("bollwerk178");
    // With --watch, the file on disk: the path given, or a bundled name's checkout copy.
    let watch = if watch {
        let checkout = std::path::PathBuf::from(format!("variants/{arg}.toml"));
        let path = std::path::PathBuf::from(arg);
        if path.is_file() {
            Some(path)
        } else if bulwark::BUNDLED.iter().any(|(n, _)| *n == arg) && checkout.is_file() {
            Some(checkout)
        } else {
            eprintln!(
                "error: --watch needs a variant file on disk; `{arg}` is none (give a path, or run in a checkout with variants/{arg}.toml)"
            );
            return Err(ExitCode::from(2));
        }
    } else {
        None
    };
    let read_from = watch
        .as_ref()
        .map_or_else(|| arg.to_string(), |p| p.display().to_string());
    let read =
        bulwark::load::read_variant(&read_from, BundledCopy::Checkout).map_err(|e| fail(&e))?;
    let (name, text) = (read.name, read.text);
    print_notes(read.note);
    let Ok(variant) =
        bulwark::serve::Variant::load_within(&name, &text, &LoadOptions::command_line())
    else {
        // The loader's own report, as `check` prints it.
        let loaded =
            Ruleset::from_source_with(&name, &text, &LoadOptions::command_line(), &mut Vec::new());
        return Err(loaded.err().map_or(ExitCode::from(1), |e| fail(&e)));
    };
    // A variant read from a file lets pages extend the files beside it; a bundled one, only
    // bundled variants.
    let folder = (!bulwark::BUNDLED.iter().any(|(n, _)| *n == read_from))
        .then(|| {
            std::path::Path::new(&name)
                .parent()
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        std::path::Path::new(".")
                    } else {
                        d
                    }
                })
                .and_then(|d| d.canonicalize().ok())
        })
        .flatten();
    let config = bulwark::serve::Config {
        bundled: BundledCopy::Checkout,
        work_budget: stop.work_budget(),
        watch: watch.clone(),
        folder,
        hosts,
        ..bulwark::serve::Config::new(std::net::SocketAddr::new(host, port), variant)
    };
    let result = bulwark::serve::run(config, |addr| {
        println!("bulwark serve: http://{addr}/ (Ctrl-C stops it)");
        if let Some(p) = &watch {
            println!("watching {}", p.display());
        }
        let _ = std::io::Write::flush(&mut std::io::stdout());
    });
    result.map_err(|e| {
        eprintln!("error: cannot serve on {host}:{port}: {e}");
        ExitCode::from(1)
    })
}

/// The start position, the pieces and the number of first turns.
fn overview(stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let rules = load(None)?;
    let pos = &rules.setup;
    outln!("{}: start position, {} to move\n", rules.name, pos.side);
    out!("{}", view::board_text(&rules, pos));
    outln!("\n{}\n", text::write_position(&rules, pos));
    outln!("pieces:");
    for p in &rules.pieces {
        outln!(
            "  {}  {:<14} rulings {}",
            p.letter,
            p.name,
            p.rulings.join(", ")
        );
    }
    let mut game = Game::start(&rules).under(stop);
    let n = game.count_turns();
    no_runaway(&game)?;
    outln!("\nlegal first turns for {}: {n}", pos.side);
    outln!(
        "\ntry: bulwark moves | bulwark perft --depth 2 | bulwark play --black computer | bulwark diagram --at G3 | bulwark compile --piece spy | bulwark --help"
    );
    Ok(())
}

/// `bulwark check`.
fn check(variant: Option<String>, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let (rules, warnings) = load_checked(variant.as_deref())?;
    if let Some(w) = warnings {
        eprint!("{}", view::diagnostic_text(&w));
    }
    let ops: usize = rules
        .pieces
        .iter()
        .map(|p| p.moves.ops.len() + p.range.ops.len())
        .sum();
    outln!(
        "{}: ok. {} cells ({} files x {} ranks), {} regions, {} stone kinds, {} piece kinds, {} ops",
        rules.name,
        rules.topo.len(),
        rules.topo.files(),
        rules.topo.ranks(),
        rules.regions.len(),
        rules.stones.len(),
        rules.pieces.len(),
        ops
    );
    // The computer player's piece values: declared in the file, or estimated from the
    // piece's reach on an empty board.
    let eval = bulwark::search::Evaluator::new(&rules);
    for (k, p) in rules.pieces.iter().enumerate() {
        let value = if p.royal {
            "royal".to_string()
        } else {
            format!(
                "value {:>5.2} ({})",
                f64::from(eval.values[k]) / 100.0,
                if eval.declared[k] {
                    "declared"
                } else {
                    "estimated"
                }
            )
        };
        outln!(
            "  {} {:<14} moves {:>3} ops, range {:>3} ops, {value}",
            p.letter,
            p.name,
            p.moves.ops.len(),
            p.range.ops.len()
        );
    }
    // Definitions whose branching is explosive already on an empty board.
    for e in view::explosive_pieces(&rules, stop.work_budget()) {
        let p = &rules.pieces[e.kind.index()];
        let part = bulwark::vm::repeated_parts(&p.moves_text)
            .first()
            .map_or_else(String::new, |r| format!("; bound the repetition `{r}`"));
        let much = if e.ran_away {
            "more landings than a budget allows".to_string()
        } else {
            format!("{} landings", e.excess + bulwark::vm::ORDINARY_RUN)
        };
        eprintln!(
            "warning: the {}'s options from the centre of an empty board take {much} (no bundled piece needs 2,000): its definition branches explosively and may run out of the work budget on a crowded board{part}",
            p.name
        );
    }
    // A tweak file: what it changes against its parent.
    if let Some(parent) = rules.extends.clone() {
        let p = load(Some(&parent))?;
        let list = bulwark::view::rulebook::bundled_scenarios(&parent);
        let d = bulwark::view::diff::diff(&p, &rules, &list, false, Some(stop));
        outln!("extends {parent}; against it:");
        out!("{}", bulwark::view::diff::diff_text(&d));
    }
    Ok(())
}

/// `bulwark diagram`.
fn diagram(start: &Start, at: &str, format: Format, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let rules = load(start.variant.as_deref())?;
    let game = start.game(&rules, stop)?;
    let pos = game.pos().clone();
    let cell = rules.topo.parse_cell(at).map_err(|e| {
        fail(&InputError {
            message: format!("bad --at: {e}"),
            src: NamedSource::new("--at", at.to_string()),
            span: None,
            help: "name a cell of the board, e.g. G7".into(),
        })
    })?;
    let d = match view::diagram_under(&rules, &pos, cell, Some(stop)) {
        Ok(d) => d,
        Err(view::DiagramError::NoPiece) => {
            return Err(fail(&InputError {
                message: format!("bad --at: {}", view::no_piece_text(&rules, &pos, cell)),
                src: NamedSource::new("--at", at.to_string()),
                span: None,
                help: "a diagram shows the options of a piece: name a cell that holds one".into(),
            }));
        }
        Err(view::DiagramError::Runaway(r)) => return Err(runaway(&rules, r)),
    };
    match format {
        Format::Text => out!("{}", view::diagram_text(&rules, &pos, &d)),
        Format::Json => outln!("{}", view::diagram_json(&rules, &d)),
        Format::Svg => out!("{}", view::diagram_svg(&rules, &pos, &d)),
    }
    Ok(())
}

/// `bulwark moves`, streamed.
fn moves(start: &Start, json: bool, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let rules = load(start.variant.as_deref())?;
    let mut game = start.game(&rules, stop)?;
    // Streamed: each turn is written as it is generated, never all held in memory.
    let mut written: Result<(), ExitCode> = Ok(());
    let mut first = true;
    if json {
        out!("[");
    }
    let _ = game.each_turn(|t| {
        if written.is_err() {
            return;
        }
        let text = text::turn_text(&rules, t);
        written = if json {
            let sep = if first { "" } else { "," };
            emit(format_args!("{sep}{}", serde_json::Value::String(text)))
        } else {
            emit(format_args!("{text}\n"))
        };
        first = false;
    });
    written?;
    no_runaway(&game)?;
    if json {
        outln!("]");
    }
    Ok(())
}

/// `bulwark perft`.
fn perft(
    start: &Start,
    depth: u32,
    divide: bool,
    jobs: Option<u32>,
    json: bool,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    let rules = load(start.variant.as_deref())?;
    let mut game = start.game(&rules, stop)?;
    let jobs = jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |j| j as usize,
    );
    let started = std::time::Instant::now();
    let nodes = if divide && depth > 0 {
        let turns = game.legal_turns().unwrap_or_default();
        no_runaway(&game)?;
        let mut total = 0;
        for t in &turns {
            game.play(t);
            let (n, r) = game.perft_jobs(depth - 1, jobs);
            game.undo();
            if let Some(r) = r {
                return Err(runaway(&rules, r));
            }
            if !json {
                outln!("{} {n}", text::turn_text(&rules, t));
            }
            total += n;
        }
        total
    } else {
        let (n, r) = game.perft_jobs(depth, jobs);
        if let Some(r) = r {
            return Err(runaway(&rules, r));
        }
        n
    };
    no_runaway(&game)?;
    let seconds = started.elapsed().as_secs_f64();
    if json {
        outln!(
            "{}",
            serde_json::json!({"depth": depth, "nodes": nodes, "seconds": seconds})
        );
    } else {
        outln!("nodes {nodes}");
    }
    Ok(())
}

/// `bulwark play`.
fn play(
    start: &Start,
    white: Seat,
    black: Seat,
    seed: u64,
    max_turns: Option<u32>,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    let rules = load(start.variant.as_deref())?;
    let game = start.game(&rules, stop)?;
    terminal::run(
        &rules,
        start.variant.as_deref().unwrap_or("bollwerk178"),
        game,
        bulwark::core::BySide::new(white.0, black.0),
        seed,
        max_turns,
    )
}

/// Plays a study's games on one rule set, with a progress bar on a terminal.
fn study_config(
    rules: &Ruleset,
    study: &Study,
    comparing: bool,
) -> Result<selfplay::MatchConfig, ExitCode> {
    let default_black = if comparing { "search" } else { "random" };
    let black = study
        .black
        .unwrap_or_else(|| AgentSpec::parse(default_black).expect("a valid agent"));
    let openings = study.openings.unwrap_or(if comparing { 4 } else { 0 });
    let paired = comparing || study.openings.is_some() || study.openings_file.is_some();
    if paired && study.games % 2 == 1 {
        eprintln!(
            "error: --games {}: games come in pairs from one opening (colours swapped), so give an even number",
            study.games
        );
        return Err(ExitCode::from(2));
    }
    if !(study.sprt_delta > 0.0 && study.sprt_delta <= 1.0) {
        eprintln!(
            "error: --sprt-delta {} is not a difference of scores between 0 and 1",
            study.sprt_delta
        );
        return Err(ExitCode::from(2));
    }
    let adjudication = (!study.no_adjudication)
        .then(|| selfplay::Adjudication::for_variant(&bulwark::search::Evaluator::new(rules)));
    Ok(selfplay::MatchConfig {
        games: study.games,
        white: study.white,
        black,
        seed: study.seed,
        max_turns: study.max_turns,
        jobs: study.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        shard: study.shard.unwrap_or((1, 1)),
        openings,
        paired,
        adjudication,
    })
}

/// A progress bar on a terminal (hidden otherwise), with the time left.
fn progress_bar(total: u64, prefix: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(total);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:40}] {pos}/{len} games, {elapsed} (time left {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b.set_prefix(prefix.to_string());
    b
}

fn write_output(path: &std::path::Path, text: &str) -> Result<(), ExitCode> {
    std::fs::write(path, text).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::from(1)
    })
}

/// The openings of a study: from `--openings-file` (each line checked in `rules` from
/// `start`), else random plies from the seed.
fn study_openings(
    rules: &Ruleset,
    start: &Game<'_>,
    study: &Study,
    cfg: &selfplay::MatchConfig,
) -> Result<Vec<Vec<String>>, ExitCode> {
    let Some(path) = &study.openings_file else {
        return Ok(selfplay::openings(rules, start, cfg));
    };
    let text = read_input(path, MAX_SCENARIO_BYTES)?;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let words: Vec<&str> = text::words(line).into_iter().map(|(_, w)| w).collect();
        if words.is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut game = start.clone();
        for w in &words {
            match text::parse_turn(&mut game, w) {
                Ok(t) => game.play(&t),
                Err(e) => {
                    eprintln!(
                        "error: {} line {}: `{w}` is not a legal turn there: {}",
                        path.display(),
                        n + 1,
                        e.reason
                    );
                    return Err(ExitCode::from(1));
                }
            }
        }
        lines.push(words.iter().map(|w| (*w).to_string()).collect::<Vec<_>>());
    }
    if lines.is_empty() {
        eprintln!(
            "error: {} has no openings (one a line, turns in move text)",
            path.display()
        );
        return Err(ExitCode::from(1));
    }
    let count = cfg.games.div_ceil(2);
    Ok((0..count).map(|i| lines[i % lines.len()].clone()).collect())
}

/// Refuses `--pgn` for a variant whose turns place stones (they have no SAN).
fn pgn_possible(rules: &Ruleset, study: &Study) -> Result<(), ExitCode> {
    if study.pgn.is_some() && !rules.stones.is_empty() {
        eprintln!(
            "error: --pgn: {}'s turns place stones, which PGN cannot write; --games-out writes its games in move text",
            rules.name
        );
        return Err(ExitCode::from(1));
    }
    Ok(())
}

/// The PGN of a set of games (those a turn of which has no SAN are left out, said on stderr).
fn pgn_text(
    start: &bulwark::play::Game<'_>,
    records: &[selfplay::Record],
    variant: &str,
    event: &str,
    cfg: &selfplay::MatchConfig,
) -> String {
    let (w, b) = (cfg.white.text(), cfg.black.text());
    let mut text = String::new();
    for r in records {
        match bulwark::search::pgn::pgn(start, r, variant, event, (&w, &b)) {
            Some(p) => text.push_str(&p),
            None => eprintln!(
                "note: game {} has a turn without SAN; it is not in the PGN",
                r.index + 1
            ),
        }
    }
    text
}

/// The `Variant` tag for a variant named on the command line: a bundled name as it is, a
/// file by its game's name.
fn pgn_variant(arg: &str, rules: &Ruleset) -> String {
    if bulwark::BUNDLED.iter().any(|(n, _)| *n == arg) {
        arg.to_string()
    } else {
        rules.name.clone()
    }
}

fn study_games(
    rules: &Ruleset,
    variant_arg: &str,
    study: &Study,
    stop: &Arc<Stop>,
) -> Result<(Vec<selfplay::Record>, selfplay::MatchConfig), ExitCode> {
    pgn_possible(rules, study)?;
    let start = game_at(
        rules,
        study.position.as_deref(),
        study.history.as_deref(),
        stop,
    )?;
    let cfg = study_config(rules, study, false)?;
    let openings = study_openings(rules, &start, study, &cfg)?;
    let (shard, shards) = cfg.shard;
    let indices: Vec<usize> = (0..cfg.games)
        .filter(|i| i % shards.max(1) == shard.saturating_sub(1))
        .collect();
    let bar = progress_bar(indices.len() as u64, &rules.name);
    let records = selfplay::play_these(rules, &start, &cfg, &openings, &indices, &|_| bar.inc(1));
    bar.finish_and_clear();
    if let Some(path) = &study.games_out {
        let mut text = String::new();
        for r in &records {
            text.push_str(&r.moves.join(" "));
            text.push('\n');
        }
        write_output(path, &text)?;
    }
    if let Some(path) = &study.pgn {
        let name = pgn_variant(variant_arg, rules);
        write_output(
            path,
            &pgn_text(&start, &records, &name, "bulwark match", &cfg),
        )?;
    }
    Ok((records, cfg))
}

/// `bulwark match`.
fn run_match(variant: Option<String>, study: &Study, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let rules = load(variant.as_deref())?;
    let (records, cfg) = study_games(
        &rules,
        variant.as_deref().unwrap_or("bollwerk178"),
        study,
        stop,
    )?;
    let summary = selfplay::Summary::of(&rules, &cfg, &records);
    if study.json {
        outln!("{}", summary.to_json());
    } else {
        out!("{}", summary.text());
        if !(cfg.white.reproducible() && cfg.black.reproducible()) {
            outln!(
                "note: a time budget (ms) makes games depend on the machine's speed; give nodes (search:20000n) to replay a study from its seed"
            );
        }
    }
    Ok(())
}

/// Largest `match --json` output `merge` reads (a result line is a few KiB; a games record
/// before it may be long).
const MAX_RESULT_BYTES: u64 = 64 << 20;

/// Largest scenario file read.
const MAX_SCENARIO_BYTES: u64 = 4 << 20;

/// The text of a file the user named: a regular file of at most `cap` bytes, or exit 1 with a
/// message that names it and says why not.
fn read_input(path: &std::path::Path, cap: u64) -> Result<String, ExitCode> {
    bulwark::core::file::read_text(path, cap).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        ExitCode::from(1)
    })
}

/// `bulwark merge`.
fn merge(files: &[std::path::PathBuf], json: bool) -> Result<(), ExitCode> {
    if files.is_empty() {
        eprintln!("error: `merge` needs at least one file of `match --json` results");
        return Err(ExitCode::from(2));
    }
    let mut total = selfplay::Summary::default();
    for f in files {
        let text = read_input(f, MAX_RESULT_BYTES)?;
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        let v: serde_json::Value = serde_json::from_str(last).map_err(|e| {
            eprintln!(
                "error: {}: the last line is not a `match --json` result: {e}",
                f.display()
            );
            ExitCode::from(1)
        })?;
        let s = selfplay::Summary::from_json(&v)
            .and_then(|s| s.consistent().map(|()| s))
            .map_err(|e| {
                eprintln!("error: {}: {e}", f.display());
                ExitCode::from(1)
            })?;
        total.add(&s).map_err(|e| {
            eprintln!("error: {}: {e}", f.display());
            ExitCode::from(1)
        })?;
    }
    if json {
        outln!("{}", total.to_json());
    } else {
        out!("{}", total.text());
    }
    Ok(())
}

/// `bulwark compare`.
fn compare(a: &str, b: &str, study: &Study, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let ra = load(Some(a))?;
    let rb = load(Some(b))?;
    pgn_possible(&ra, study)?;
    pgn_possible(&rb, study)?;
    let (position, history) = (study.position.as_deref(), study.history.as_deref());
    let start_a = game_at(&ra, position, history, stop)?;
    let start_b = game_at(&rb, position, history, stop)?;
    let cfg = study_config(&ra, study, true)?;
    // Both rule sets open with A's openings (a ply B refuses is chosen in B from the seed).
    let openings = study_openings(&ra, &start_a, study, &cfg)?;
    let (shard, shards) = cfg.shard;
    let indices: Vec<usize> = (0..cfg.games)
        .filter(|i| i % shards.max(1) == shard.saturating_sub(1))
        .collect();
    let bar = progress_bar(
        2 * indices.len() as u64,
        &format!("{} and {}", ra.name, rb.name),
    );
    let (mut rec_a, mut rec_b) = (Vec::new(), Vec::new());
    let mut sprt = None;
    // With --sprt, games are played in batches of whole openings, and the test looks after
    // each batch; without it, in one batch.
    let batch = if study.sprt {
        (2 * cfg.jobs).max(8)
    } else {
        indices.len().max(1)
    };
    for chunk in indices.chunks(batch) {
        rec_a.extend(selfplay::play_these(
            &ra,
            &start_a,
            &cfg,
            &openings,
            chunk,
            &|_| bar.inc(1),
        ));
        rec_b.extend(selfplay::play_these(
            &rb,
            &start_b,
            &cfg,
            &openings,
            chunk,
            &|_| bar.inc(1),
        ));
        if study.sprt {
            let d = selfplay::paired_differences(&cfg, &rec_a, &rec_b);
            let (verdict, up, down) =
                bulwark::search::stats::sprt(&d, study.sprt_delta, 0.05, 0.05);
            sprt = Some((verdict, study.sprt_delta, up, down));
            if verdict != bulwark::search::stats::Sprt::Continue {
                break;
            }
        }
    }
    bar.finish_and_clear();
    let sa = selfplay::Summary::of(&ra, &cfg, &rec_a);
    let sb = selfplay::Summary::of(&rb, &cfg, &rec_b);
    let diffs = selfplay::paired_differences(&cfg, &rec_a, &rec_b);
    let mut cmp = selfplay::Comparison::new((a.to_string(), b.to_string()), sa, sb, &diffs);
    cmp.sprt = sprt;
    write_compare_files(
        study,
        (a, &ra, &start_a, &rec_a),
        (b, &rb, &start_b, &rec_b),
        &cfg,
        &cmp,
    )?;
    if study.json {
        outln!("{}", cmp.to_json());
    } else {
        let from = match &study.openings_file {
            Some(p) => format!("from {}", p.display()),
            None => format!("of {} random plies", cfg.openings),
        };
        outln!(
            "{} games each, white {} against black {} (colours swapped in the second game of each opening {from})",
            cmp.a.games,
            cfg.white.text(),
            cfg.black.text(),
        );
        out!("{}", cmp.text());
    }
    Ok(())
}

/// One rule set of a comparison as `compare` writes it: its argument, rules, start and games.
type Compared<'a, 'r> = (&'a str, &'r Ruleset, &'a Game<'r>, &'a [selfplay::Record]);

/// The files `compare` writes when asked: both rule sets' games as move lists, as PGN, and
/// the HTML report.
fn write_compare_files(
    study: &Study,
    (a, ra, start_a, rec_a): Compared<'_, '_>,
    (b, rb, start_b, rec_b): Compared<'_, '_>,
    cfg: &selfplay::MatchConfig,
    cmp: &selfplay::Comparison,
) -> Result<(), ExitCode> {
    if let Some(path) = &study.games_out {
        let mut text = String::new();
        for (label, recs) in [("A", rec_a), ("B", rec_b)] {
            for r in recs {
                text.push_str(label);
                text.push(' ');
                text.push_str(&r.moves.join(" "));
                text.push('\n');
            }
        }
        write_output(path, &text)?;
    }
    if let Some(path) = &study.pgn {
        let mut text = pgn_text(start_a, rec_a, &pgn_variant(a, ra), &format!("A: {a}"), cfg);
        text.push_str(&pgn_text(
            start_b,
            rec_b,
            &pgn_variant(b, rb),
            &format!("B: {b}"),
            cfg,
        ));
        write_output(path, &text)?;
    }
    if let Some(dir) = &study.html {
        std::fs::create_dir_all(dir).map_err(|e| {
            eprintln!("error: cannot create {}: {e}", dir.display());
            ExitCode::from(1)
        })?;
        write_output(
            &dir.join("index.html"),
            &bulwark::search::report::compare_page(cmp, rec_a, rec_b, cfg),
        )?;
    }
    Ok(())
}

/// `bulwark status`.
fn status(start: &Start, json: bool, stop: &Arc<Stop>) -> Result<(), ExitCode> {
    let rules = load(start.variant.as_deref())?;
    let mut game = start.game(&rules, stop)?;
    let outcome = game.outcome();
    no_runaway(&game)?;
    let side_word = |s: bulwark::core::Side| match s {
        bulwark::core::Side::White => "white",
        bulwark::core::Side::Black => "black",
    };
    match (outcome, json) {
        (None, false) => outln!("ongoing"),
        (None, true) => outln!("{}", serde_json::json!({"result": null, "reason": null})),
        (Some(o), false) => {
            let reason = o.reason.text(&rules);
            match o.winner {
                Some(w) => outln!("{} wins: {reason}", rules.side_name(w)),
                None => outln!("draw: {reason}"),
            }
        }
        (Some(o), true) => outln!(
            "{}",
            serde_json::json!({
                "result": o.winner.map_or("draw", side_word),
                "reason": o.reason.text(&rules),
            })
        ),
    }
    Ok(())
}

/// `bulwark rulebook`: the files in memory, then written.
fn rulebook(
    variant: Option<String>,
    out: std::path::PathBuf,
    scenarios: Vec<std::path::PathBuf>,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    let name = variant.as_deref().unwrap_or("bollwerk178");
    let rules = load(Some(name))?;
    let list = if scenarios.is_empty() {
        inherited_scenarios(name, &rules)?
    } else {
        scenario_files(&scenarios, name)?
    };
    let book = bulwark::view::rulebook::rulebook(&rules, &list, Some(stop)).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(1)
    })?;
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", p.display());
            ExitCode::from(1)
        })
    };
    std::fs::create_dir_all(&out).map_err(|e| {
        eprintln!("error: cannot create {}: {e}", out.display());
        ExitCode::from(1)
    })?;
    for (name, text) in &book.files {
        write(name, text)?;
    }
    outln!(
        "wrote {} files to {} (open {})",
        book.files.len(),
        out.display(),
        out.join("index.html").display()
    );
    for c in &book.contradictions {
        eprintln!("warning: {c}");
    }
    if !book.contradictions.is_empty() {
        eprintln!(
            "warning: {} caption claim(s) contradict their diagrams under these rules; the page marks them",
            book.contradictions.len()
        );
    }
    Ok(())
}

/// The bundled scenarios of a variant, or of the nearest variant it extends that has some.
fn inherited_scenarios(
    name: &str,
    rules: &Ruleset,
) -> Result<Vec<bulwark::view::rulebook::Scenario>, ExitCode> {
    let own = bulwark::view::rulebook::bundled_scenarios(name);
    if !own.is_empty() {
        return Ok(own);
    }
    match &rules.extends {
        Some(parent) => {
            let p = load(Some(parent))?;
            inherited_scenarios(parent, &p)
        }
        None => Ok(Vec::new()),
    }
}

/// Reads scenario files, or the bundled scenarios of a bundled variant.
fn scenario_files(
    files: &[std::path::PathBuf],
    bundled: &str,
) -> Result<Vec<bulwark::view::rulebook::Scenario>, ExitCode> {
    if files.is_empty() {
        return Ok(bulwark::view::rulebook::bundled_scenarios(bundled));
    }
    let mut all = Vec::new();
    for path in files {
        let text = read_input(path, MAX_SCENARIO_BYTES)?;
        all.extend(
            bulwark::view::rulebook::parse_scenarios(&text).map_err(|e| {
                eprintln!("error: scenario file {}: {e}", path.display());
                ExitCode::from(1)
            })?,
        );
    }
    Ok(all)
}

/// `bulwark diff`.
fn diff(
    a: &str,
    b: &str,
    format: DiffFormat,
    out: Option<std::path::PathBuf>,
    scenarios: &[std::path::PathBuf],
    no_perft: bool,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    let ra = load(Some(a))?;
    let rb = load(Some(b))?;
    let list = scenario_files(scenarios, a)?;
    let d = bulwark::view::diff::diff(&ra, &rb, &list, !no_perft, Some(stop));
    match format {
        DiffFormat::Text => out!("{}", bulwark::view::diff::diff_text(&d)),
        DiffFormat::Json => outln!("{}", bulwark::view::diff::diff_json(&d)),
        DiffFormat::Html => {
            let Some(dir) = out else {
                eprintln!("error: --format html writes files: give --out DIR");
                return Err(ExitCode::from(2));
            };
            std::fs::create_dir_all(&dir).map_err(|e| {
                eprintln!("error: cannot create {}: {e}", dir.display());
                ExitCode::from(1)
            })?;
            let files = bulwark::view::diff::diff_html(&d);
            for (name, text) in &files {
                let p = dir.join(name);
                std::fs::write(&p, text).map_err(|e| {
                    eprintln!("error: cannot write {}: {e}", p.display());
                    ExitCode::from(1)
                })?;
            }
            outln!(
                "wrote {} files to {} (open {})",
                files.len(),
                dir.display(),
                dir.join("index.html").display()
            );
        }
    }
    Ok(())
}

/// `bulwark snapshots`.
fn snapshots(
    arg: &str,
    accept: bool,
    dir: Option<std::path::PathBuf>,
    stop: &Arc<Stop>,
) -> Result<(), ExitCode> {
    use bulwark::view::snapshots::{self, Status};
    let rules = load(Some(arg))?;
    let dir = dir.unwrap_or_else(|| {
        let path = std::path::Path::new(arg);
        let stem = path
            .file_stem()
            .map_or_else(|| arg.to_string(), |s| s.to_string_lossy().into_owned());
        path.parent()
            .unwrap_or(std::path::Path::new(""))
            .join(format!("{stem}.snapshots"))
    });
    let drawn = snapshots::diagrams(&rules, &inherited_scenarios(arg, &rules)?, Some(stop));
    let compared = snapshots::compare(&dir, &drawn).map_err(|e| {
        eprintln!("error: cannot read the snapshots: {e}");
        ExitCode::from(1)
    })?;
    // For a diagram not stored yet, the same diagram of the variant it extends, if any, shows
    // what the tweak changes on its first run.
    let parent = match &rules.extends {
        Some(p) => {
            let pr = load(Some(p))?;
            let list = snapshots::diagrams(&pr, &inherited_scenarios(p, &pr)?, Some(stop));
            Some((p.clone(), list))
        }
        None => None,
    };
    let count = |want: fn(&Status) -> bool| compared.iter().filter(|(_, s)| want(s)).count();
    let (changed, new, gone) = (
        count(|s| matches!(s, Status::Changed(_))),
        count(|s| matches!(s, Status::New)),
        count(|s| matches!(s, Status::Gone(_))),
    );
    if accept {
        snapshots::accept(&dir, &compared).map_err(|e| {
            eprintln!("error: cannot store the snapshots: {e}");
            ExitCode::from(1)
        })?;
        outln!(
            "stored {} diagrams in {} ({changed} changed, {new} new, {gone} removed)",
            drawn.len(),
            dir.display()
        );
        return Ok(());
    }
    for (s, status) in &compared {
        match status {
            Status::Same => {}
            Status::Changed(old) => {
                outln!("changed: {}", s.name);
                out!("{}", snapshots::line_diff(old, s.text.trim_end()));
            }
            Status::New => {
                let before = parent.as_ref().and_then(|(p, list)| {
                    list.iter()
                        .find(|d| d.name == s.name)
                        .map(|d| (p, d.text.trim_end()))
                });
                match before {
                    Some((p, old)) if old == s.text.trim_end() => {
                        outln!("new: {} (the same as in {p})", s.name);
                    }
                    Some((p, old)) => {
                        outln!("new: {} (against {p}):", s.name);
                        out!("{}", snapshots::line_diff(old, s.text.trim_end()));
                    }
                    None => {
                        outln!("new: {}", s.name);
                        outln!("{}", s.text.trim_end());
                    }
                }
            }
            Status::Gone(_) => outln!("gone: {} (stored, no longer drawn)", s.name),
        }
    }
    let same = compared.len() - changed - new - gone;
    outln!(
        "{} diagrams in {}: {same} unchanged, {changed} changed, {new} new, {gone} gone",
        drawn.len(),
        dir.display()
    );
    if changed + new + gone > 0 {
        outln!("run again with --accept to store them");
        return Err(ExitCode::from(1));
    }
    Ok(())
}

/// `bulwark compile`.
fn compile(variant: Option<String>, piece: Option<String>) -> Result<(), ExitCode> {
    let rules = load(variant.as_deref())?;
    let owned = rules.names_owned();
    let names = owned.names();
    let which: Vec<usize> = match &piece {
        None => (0..rules.pieces.len()).collect(),
        Some(k) => match rules.find_piece(k) {
            Some(i) => vec![i],
            None => {
                let known: Vec<&str> = rules.pieces.iter().map(|p| p.id.as_str()).collect();
                return Err(fail(&InputError {
                    message: format!("bad --piece: `{k}` is not a piece of {}", rules.name),
                    src: NamedSource::new("--piece", k.clone()),
                    span: None,
                    help: format!("give an id, name or letter: {}", known.join(", ")),
                }));
            }
        },
    };
    for i in which {
        let p = &rules.pieces[i];
        outln!("piece {} ({}) {}", p.id, p.letter, p.name);
        outln!(
            "  moves: {} ops, {} legs",
            p.moves.ops.len(),
            p.moves.legs.len()
        );
        out!("{}", p.moves.listing(&rules.links, &names));
        match &p.range_text {
            Some(_) => {
                outln!(
                    "  range: {} ops, {} legs",
                    p.range.ops.len(),
                    p.range.legs.len()
                );
                out!("{}", p.range.listing(&rules.links, &names));
            }
            None => outln!("  range: same program as moves (B-41)"),
        }
        outln!();
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The whole command works under one stop: the work budget of each run and one budget of
    // unusual work (see vm::Stop).
    let budget = |name: &str, default: u64| match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => {
                eprintln!("error: {name}=`{v}` is not a positive whole number");
                Err(ExitCode::from(1))
            }
        },
    };
    let (work, command) = match (
        budget("BULWARK_WORK_BUDGET", bulwark::vm::WORK_BUDGET),
        budget("BULWARK_COMMAND_BUDGET", bulwark::vm::COMMAND_BUDGET),
    ) {
        (Ok(w), Ok(c)) => (w, c),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let stop = Arc::new(Stop::with_budget(None, command).with_work_budget(work));
    match run(cli, &stop) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// `bulwark uci`: the engine's searches get the command's work budget for each run (a long
/// session has no budget of unusual work in all).
fn uci(variant: Option<String>, stop: &Arc<Stop>) {
    let mut engine = bulwark::uci::Engine::new(Box::new(std::io::stdout()))
        .reading(BundledCopy::Checkout)
        .work_budget(stop.work_budget());
    if let Some(v) = variant {
        if bulwark::BUNDLED.iter().any(|(n, _)| *n == v) {
            engine.command(&format!("setoption name UCI_Variant value {v}"));
        } else {
            engine.command(&format!("setoption name VariantFile value {v}"));
        }
    }
    engine.run(std::io::stdin().lock());
}
