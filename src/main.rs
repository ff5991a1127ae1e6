//! The `bulwark` command line: the only code that prints or picks exit codes.

use std::process::ExitCode;

mod play;

use bulwark::game::Game;
use bulwark::notation::{self, PositionError};
use bulwark::render;
use bulwark::variant::LoadError;
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

#[derive(Subcommand)]
enum Command {
    /// Load, validate and compile a variant; print a summary.
    Check {
        /// Variant file or bundled name.
        variant: Option<String>,
    },
    /// The rulebook-style diagram of the piece on a cell.
    Diagram {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// The piece's cell, e.g. G7.
        #[arg(long)]
        at: String,
        /// Position text (defaults to the variant's start position).
        #[arg(long)]
        position: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// All legal turns of the side to move, one canonical move text a line.
    Moves {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// Position text (defaults to the variant's start position).
        #[arg(long)]
        position: Option<String>,
        /// Print a JSON array of strings.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaf nodes of the legal turn tree.
    Perft {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// How many turns deep.
        #[arg(long)]
        depth: u32,
        /// Position text (defaults to the variant's start position).
        #[arg(long)]
        position: Option<String>,
        /// First print each root turn with its count.
        #[arg(long)]
        divide: bool,
        /// Print {"depth":N,"nodes":N,"seconds":S}.
        #[arg(long)]
        json: bool,
    },
    /// Play in the terminal: two humans, or a side given to the computer (random turns).
    Play {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// Position text (defaults to the variant's start position).
        #[arg(long)]
        position: Option<String>,
        /// Who plays White.
        #[arg(long, value_enum, default_value_t = Player::Human)]
        white: Player,
        /// Who plays Black.
        #[arg(long, value_enum, default_value_t = Player::Human)]
        black: Player,
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
        /// A scenario file (see tests/rulebook/); bundled variants bring their own.
        #[arg(long)]
        scenarios: Option<std::path::PathBuf>,
    },
    /// Show the bytecode the compiler produced.
    Compile {
        /// Variant file or bundled name.
        variant: Option<String>,
        /// Only this piece (id, name or letter).
        #[arg(long)]
        piece: Option<String>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Player {
    Human,
    Computer,
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

fn fail(d: &dyn Diagnostic) -> ExitCode {
    eprint!("{}", render::diagnostic_text(d));
    ExitCode::from(1)
}

fn load(variant: Option<&str>) -> Result<Ruleset, ExitCode> {
    Ruleset::load_named(variant.unwrap_or("bollwerk178")).map_err(|e: LoadError| fail(&e))
}

fn position(rules: &Ruleset, text: Option<&str>) -> Result<Position, ExitCode> {
    match text {
        None => Ok(rules.setup.clone()),
        Some(t) => notation::parse_position(rules, t).map_err(|e: PositionError| {
            fail(&InputError {
                message: format!("bad --position: {e}"),
                src: NamedSource::new("--position", t.to_string()),
                span: e.range,
                help: "position text is BOARD SIDE [SUPPLIES [TABOO]], see SPEC.md".into(),
            })
        }),
    }
}

fn run(cli: Cli) -> Result<(), ExitCode> {
    match cli.command {
        None => {
            let rules = load(None)?;
            let pos = &rules.setup;
            println!("{}: start position, {} to move\n", rules.name, pos.side);
            print!("{}", render::board_text(&rules, pos));
            println!("\n{}\n", notation::write_position(&rules, pos));
            println!("pieces:");
            for p in &rules.pieces {
                println!(
                    "  {}  {:<14} rulings {}",
                    p.letter,
                    p.name,
                    p.rulings.join(", ")
                );
            }
            let mut game = Game::new(&rules, pos.clone());
            println!(
                "\nlegal first turns for {}: {}",
                pos.side,
                game.count_turns()
            );
            println!(
                "\ntry: bulwark moves | bulwark perft --depth 2 | bulwark play --black computer | bulwark diagram --at G3 | bulwark compile --piece spy | bulwark --help"
            );
            Ok(())
        }
        Some(Command::Check { variant }) => {
            let rules = load(variant.as_deref())?;
            let ops: usize = rules
                .pieces
                .iter()
                .map(|p| p.moves.ops.len() + p.range.ops.len())
                .sum();
            println!(
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
            for p in &rules.pieces {
                println!(
                    "  {} {:<14} moves {:>3} ops, range {:>3} ops",
                    p.letter,
                    p.name,
                    p.moves.ops.len(),
                    p.range.ops.len()
                );
            }
            Ok(())
        }
        Some(Command::Diagram {
            variant,
            at,
            position: ptext,
            format,
        }) => {
            let rules = load(variant.as_deref())?;
            let pos = position(&rules, ptext.as_deref())?;
            let cell = rules.topo.parse_cell(&at).map_err(|e| {
                fail(&InputError {
                    message: format!("bad --at: {e}"),
                    src: NamedSource::new("--at", at.clone()),
                    span: None,
                    help: "name a cell of the board, e.g. G7".into(),
                })
            })?;
            let Some(d) = render::diagram(&rules, &pos, cell) else {
                return Err(fail(&InputError {
                    message: format!("bad --at: no piece stands on {}", rules.topo.name(cell)),
                    src: NamedSource::new("--at", at.clone()),
                    span: None,
                    help: "a diagram shows the options of a piece: name a cell that holds one"
                        .into(),
                }));
            };
            match format {
                Format::Text => print!("{}", render::diagram_text(&rules, &pos, &d)),
                Format::Json => println!("{}", render::diagram_json(&rules, &d)),
                Format::Svg => print!("{}", render::diagram_svg(&rules, &pos, &d)),
            }
            Ok(())
        }
        Some(Command::Moves {
            variant,
            position: ptext,
            json,
        }) => {
            let rules = load(variant.as_deref())?;
            let pos = position(&rules, ptext.as_deref())?;
            let mut game = Game::new(&rules, pos);
            let texts: Vec<String> = match game.legal_turns() {
                Ok(turns) => turns
                    .iter()
                    .map(|t| notation::turn_text(&rules, t))
                    .collect(),
                Err(_) => Vec::new(),
            };
            if json {
                println!("{}", serde_json::to_string(&texts).unwrap_or_default());
            } else {
                for t in &texts {
                    println!("{t}");
                }
            }
            Ok(())
        }
        Some(Command::Perft {
            variant,
            depth,
            position: ptext,
            divide,
            json,
        }) => {
            let rules = load(variant.as_deref())?;
            let pos = position(&rules, ptext.as_deref())?;
            let mut game = Game::new(&rules, pos);
            let started = std::time::Instant::now();
            let nodes = if divide && depth > 0 {
                let turns = game.legal_turns().unwrap_or_default();
                let mut total = 0;
                for t in &turns {
                    game.play(t);
                    let n = game.perft(depth - 1);
                    game.undo();
                    if !json {
                        println!("{} {n}", notation::turn_text(&rules, t));
                    }
                    total += n;
                }
                total
            } else {
                game.perft(depth)
            };
            let seconds = started.elapsed().as_secs_f64();
            if json {
                println!(
                    "{}",
                    serde_json::json!({"depth": depth, "nodes": nodes, "seconds": seconds})
                );
            } else {
                println!("nodes {nodes}");
            }
            Ok(())
        }
        Some(Command::Play {
            variant,
            position: ptext,
            white,
            black,
            seed,
            max_turns,
        }) => {
            let rules = load(variant.as_deref())?;
            let pos = position(&rules, ptext.as_deref())?;
            play::run(
                &rules,
                pos,
                [white == Player::Computer, black == Player::Computer],
                seed,
                max_turns,
            );
            Ok(())
        }
        Some(Command::Rulebook {
            variant,
            out,
            scenarios,
        }) => {
            let name = variant.as_deref().unwrap_or("bollwerk178");
            let rules = load(Some(name))?;
            let list = match &scenarios {
                Some(path) => {
                    let text = std::fs::read_to_string(path).map_err(|e| {
                        eprintln!("error: cannot read scenario file {}: {e}", path.display());
                        ExitCode::from(1)
                    })?;
                    bulwark::rulebook::parse_scenarios(&text).map_err(|e| {
                        eprintln!("error: scenario file {}: {e}", path.display());
                        ExitCode::from(1)
                    })?
                }
                None => bulwark::rulebook::bundled_scenarios(name),
            };
            match bulwark::rulebook::write_rulebook(&rules, &list, &out) {
                Ok(files) => {
                    println!(
                        "wrote {} files to {} (open {})",
                        files.len(),
                        out.display(),
                        out.join("index.html").display()
                    );
                    Ok(())
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    Err(ExitCode::from(1))
                }
            }
        }
        Some(Command::Compile { variant, piece }) => {
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
                println!("piece {} ({}) {}", p.id, p.letter, p.name);
                println!(
                    "  moves: {} ops, {} legs",
                    p.moves.ops.len(),
                    p.moves.legs.len()
                );
                print!("{}", p.moves.listing(&rules.links, &names));
                match &p.range_text {
                    Some(_) => {
                        println!(
                            "  range: {} ops, {} legs",
                            p.range.ops.len(),
                            p.range.legs.len()
                        );
                        print!("{}", p.range.listing(&rules.links, &names));
                    }
                    None => println!("  range: same program as moves (B-41)"),
                }
                println!();
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
