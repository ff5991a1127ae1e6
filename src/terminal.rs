//! `bulwark play`: a terminal game between humans, a human and the computer, or two computers.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use bulwark::core::{BySide, Side};
use bulwark::play::Game;
use bulwark::search::{Agent, AgentSpec, derive};
use bulwark::{Position, Ruleset, text, view};

/// A small deterministic generator for the computer's choices.
/// Turns a game between two computers lasts at most when no `--max-turns` is given: some games
/// (bare kings, without draw rules) never end by themselves.
const COMPUTER_GAME_TURNS: u32 = 2_000;

/// Plays until the game ends, the input ends, `quit`, or `max_turns`. A closed output ends the
/// game quietly (exit 0); a definition that runs away is an error (exit 1).
pub fn run(
    rules: &Ruleset,
    variant: &str,
    game: Game<'_>,
    computer: BySide<Option<AgentSpec>>,
    seed: u64,
    max_turns: Option<u32>,
) -> Result<(), ExitCode> {
    let both = computer[Side::White].is_some() && computer[Side::Black].is_some();
    let max_turns = max_turns.or(both.then_some(COMPUTER_GAME_TURNS));
    match game_loop(rules, variant, game, computer, seed, max_turns) {
        Ok(()) => Ok(()),
        Err(Stop::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(ExitCode::SUCCESS)
        }
        Err(Stop::Output(e)) => {
            eprintln!("error: cannot write the output: {e}");
            Err(ExitCode::from(1))
        }
        Err(Stop::Runaway(r)) => {
            eprintln!("error: {}", r.message(rules));
            Err(ExitCode::from(1))
        }
        Err(Stop::Input(m)) => {
            eprintln!("error: {m}");
            Err(ExitCode::from(1))
        }
    }
}

/// The longest line of input `play` reads (a command or a move text is a few dozen bytes).
const MAX_LINE: usize = 64 << 10;

/// The next line of input, without its end; `None` at the end of input. A line longer than
/// [`MAX_LINE`] (say, `/dev/zero` as input) is an error, not memory without end.
fn next_line(input: &mut impl BufRead) -> Result<Option<String>, Stop> {
    let mut line = Vec::new();
    let read = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| Stop::Input(format!("cannot read the input: {e}")))?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() > MAX_LINE {
        return Err(Stop::Input(format!(
            "an input line is longer than {} KiB: is the input a text of moves and commands?",
            MAX_LINE >> 10
        )));
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| Stop::Input("an input line is not UTF-8 text".to_string()))
}

/// Why a game stopped before its end.
enum Stop {
    Output(std::io::Error),
    Runaway(bulwark::vm::Runaway),
    /// The input is not lines of text.
    Input(String),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Output(e)
    }
}

fn game_loop<'r>(
    rules: &'r Ruleset,
    variant: &str,
    game: Game<'r>,
    computer: BySide<Option<AgentSpec>>,
    seed: u64,
    max_turns: Option<u32>,
) -> Result<(), Stop> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut agents: Vec<Option<Agent>> = Side::BOTH
        .iter()
        .map(|&s| computer[s].map(|spec| Agent::new(spec, rules, derive(seed, s.index() as u64))))
        .collect();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut t = Table {
        rules,
        variant,
        start: game.first_position(),
        game,
        computer: &computer,
        played: 0,
        last: Vec::new(),
        redraw: true,
    };
    loop {
        if t.redraw {
            writeln!(out)?;
            write!(
                out,
                "{}",
                view::board_text_marked(rules, t.game.pos(), &t.last)
            )?;
            write!(out, "{}", supplies(rules, t.game.pos()))?;
            t.redraw = false;
        }
        let turns = t.game.legal_turns();
        if let Some(r) = t.game.runaway() {
            return Err(Stop::Runaway(r));
        }
        let turns = match turns {
            Ok(turns) => turns,
            Err(outcome) => {
                writeln!(out, "result: {}", outcome.text(rules))?;
                return Ok(());
            }
        };
        let played = t.played;
        if max_turns.is_some_and(|m| played >= m) {
            writeln!(
                out,
                "result: stopped after {played} turn{} (move limit; not a rule of the game)",
                if played == 1 { "" } else { "s" }
            )?;
            return Ok(());
        }
        let side = t.game.pos().side;
        if let Some(agent) = agents[side.index()].as_mut() {
            let Some(turn) = agent.choose(&mut t.game) else {
                continue;
            };
            writeln!(
                out,
                "{} (computer, {}) plays {}",
                rules.side_name(side),
                agent.spec().text(),
                text::turn_text(rules, &turn)
            )?;
            t.play(&turn);
            continue;
        }
        write!(
            out,
            "{} to move ({} turns; `help` lists the commands)> ",
            rules.side_name(side),
            turns.len()
        )?;
        out.flush()?;
        let Some(line) = next_line(&mut input)? else {
            writeln!(out, "\nresult: input ended, game abandoned")?;
            return Ok(());
        };
        if t.command(&mut out, line.trim(), &turns)? {
            return Ok(());
        }
    }
}

/// What one typed command may change in the terminal game.
struct Table<'a, 'r> {
    rules: &'r Ruleset,
    variant: &'a str,
    game: Game<'r>,
    computer: &'a BySide<Option<AgentSpec>>,
    /// Turns played since the start or the last `load`.
    played: u32,
    /// The position the game started from (what `save` writes first).
    start: bulwark::Position,
    /// The cells the last turn touched, marked on the board.
    last: Vec<bulwark::Cell>,
    /// Whether to draw the board before the next prompt.
    redraw: bool,
}

impl Table<'_, '_> {
    /// Plays `turn` (legal) and marks its cells.
    fn play(&mut self, turn: &bulwark::Turn) {
        self.last = turn.touched();
        self.game.play(turn);
        self.played += 1;
        self.redraw = true;
    }

    /// Runs one command typed at the prompt (`line`, trimmed; `turns` the legal turns); true
    /// when the game is over for the terminal (quit).
    fn command(
        &mut self,
        out: &mut impl Write,
        line: &str,
        turns: &[bulwark::Turn],
    ) -> Result<bool, Stop> {
        let (word, arg) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "" => {}
            "quit" => {
                writeln!(out, "result: game abandoned")?;
                return Ok(true);
            }
            "help" => write!(out, "{HELP}")?,
            "board" => self.redraw = true,
            "position" => writeln!(out, "{}", text::write_position(self.rules, self.game.pos()))?,
            "moves" => list_moves(out, self.rules, turns, arg.trim())?,
            "save" if !arg.trim().is_empty() => {
                let path = arg.trim();
                let text = text::write_record(
                    self.variant,
                    &mut self.game,
                    "# A game saved from bulwark play. Load it with `load FILE` in `bulwark play`.\n",
                );
                match std::fs::write(path, text) {
                    Ok(()) => writeln!(out, "saved to {path}")?,
                    Err(e) => writeln!(out, "not saved: {path}: {e}")?,
                }
            }
            "load" if !arg.trim().is_empty() => {
                match load_record(self.rules, self.variant, arg.trim(), self.game.stop()) {
                    Ok((g, note)) => {
                        if let Some(n) = note {
                            writeln!(out, "note: {n}")?;
                        }
                        self.played = 0;
                        self.start = g.first_position();
                        self.game = g;
                        self.last.clear();
                        self.redraw = true;
                    }
                    Err(e) => writeln!(out, "not loaded: {e}")?,
                }
            }
            "undo" => {
                // Take back to the last turn a human played.
                let mut undone = 0;
                while self.game.undo() {
                    undone += 1;
                    self.played = self.played.saturating_sub(1);
                    if self.computer[self.game.pos().side].is_none() {
                        break;
                    }
                }
                if undone == 0 {
                    writeln!(out, "nothing to undo")?;
                } else {
                    self.last.clear();
                    self.redraw = true;
                }
            }
            _ => match text::parse_turn(&mut self.game, line) {
                Ok(t) => {
                    self.play(&t);
                }
                Err(e) => writeln!(out, "not played: {e}")?,
            },
        }
        Ok(false)
    }
}

/// Reads a game record from a file and replays it under `rules`; a note when it names another
/// variant than the one being played.
fn load_record<'r>(
    rules: &'r Ruleset,
    variant: &str,
    path: &str,
    stop: Option<&std::sync::Arc<bulwark::vm::Stop>>,
) -> Result<(Game<'r>, Option<String>), String> {
    let text = bulwark::core::file::read_text(std::path::Path::new(path), 1 << 20)
        .map_err(|e| format!("{path}: {e}"))?;
    let record = text::parse_record(&text).map_err(|e| format!("{path}: {e}"))?;
    let game = text::replay_record(rules, &record, stop).map_err(|e| format!("{path}: {e}"))?;
    let note = (record.variant != variant).then(|| {
        format!(
            "the record was played under `{}`; its turns are legal under `{variant}` too",
            record.variant
        )
    });
    Ok((game, note))
}

/// What `help` prints.
const HELP: &str = "\
  MOVE         play a turn in move text: F4-F5, F6xF11, D3-E5^E6, J3^K3#K5, F6!G8, e7-e8=Q
  moves        how many turns each piece has
  moves CELL   the turns of the piece on CELL
  board        draw the board again (the last turn's cells are in brackets)
  position     the position text
  undo         take back the last turn (and the computer's reply)
  save FILE    write the game record (the web board's export) to FILE
  load FILE    continue from a game record (the web board's export, or a saved game)
  help         this list
  quit         end the game
";

/// Each side's stones in supply and pieces in reserve, when the variant has them.
fn supplies(rules: &Ruleset, pos: &Position) -> String {
    let mut s = String::new();
    for (side, supply) in pos.supplies.iter() {
        if !rules.stones.is_empty() {
            let items: Vec<String> = rules
                .stones
                .iter()
                .zip(supply)
                .map(|(k, n)| format!("{}{n} {}", k.symbol, k.name))
                .collect();
            s.push_str(&format!(
                "{} supply: {}\n",
                rules.side_name(side),
                items.join(", ")
            ));
        }
        if rules.has_reserve() {
            let items: Vec<String> = rules
                .pieces
                .iter()
                .zip(&supply[rules.stones.len()..])
                .filter(|(p, _)| p.reserve.is_some())
                .map(|(p, n)| format!("{n} {}", p.name))
                .collect();
            s.push_str(&format!(
                "{} reserve: {}\n",
                rules.side_name(side),
                items.join(", ")
            ));
        }
    }
    s
}

/// `moves`: per piece, how many turns it has; `moves CELL`: that piece's turns.
fn list_moves(
    out: &mut impl Write,
    rules: &Ruleset,
    turns: &[bulwark::Turn],
    cell: &str,
) -> std::io::Result<()> {
    if cell.is_empty() {
        let mut by_cell: Vec<(bulwark::Cell, usize)> = Vec::new();
        for t in turns {
            match by_cell.iter_mut().find(|(c, _)| *c == t.from()) {
                Some((_, n)) => *n += 1,
                None => by_cell.push((t.from(), 1)),
            }
        }
        by_cell.sort();
        let items: Vec<String> = by_cell
            .iter()
            .map(|(c, n)| format!("{} {n}", rules.topo.name(*c)))
            .collect();
        writeln!(out, "turns by piece: {}", items.join(", "))?;
        return writeln!(out, "`moves CELL` lists the turns of one piece");
    }
    match rules.topo.parse_cell(cell) {
        Ok(c) => {
            let texts: Vec<String> = turns
                .iter()
                .filter(|t| t.from() == c)
                .map(|t| text::turn_text(rules, t))
                .collect();
            if texts.is_empty() {
                writeln!(out, "no turn starts on {}", rules.topo.name(c))
            } else {
                writeln!(out, "{}", texts.join(" "))
            }
        }
        Err(e) => writeln!(out, "{e}"),
    }
}
