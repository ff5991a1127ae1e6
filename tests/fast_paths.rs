//! The shortcuts of legal-turn generation against the general path. Out of check, a turn that
//! leaves alone every cell between a royal piece and an enemy rider or hopper on its lines, and
//! the legs of enemy lame leapers aimed at it, is reported without being played and tested
//! (`play::generate`, `Sensitive`); in check, a turn that changes no cell of any attack on the
//! royal piece is refused without being played. `Game::legal_turns_by_testing` plays and tests
//! every turn.
//! Here both lists must be equal, in every position of random playouts of every bundled
//! variant, from its start and from every position of its perft file (pins, en passant,
//! castling through attacks, cannons' screens, horses' legs).
//!
//! Plain pieces (steps, free leaps and rides along fixed vectors) are run by a fast path of
//! the VM that reads the position in place: its options, and its answers to attack queries,
//! must be the general interpreter's. So must everything a program of one leg per path (lame
//! leaps, hops, jumps, region conditions) reads in place: options, placement ranges and
//! attack answers.
//!
//! The quiescence search's loud turns (`Game::loud_turns`: captures and changes of kind,
//! found in cell sets where the board allows it, quiet moves neither generated nor tested)
//! must be the legal turns filtered, in every position of the same playouts.
//!
//! Perft's inner plies list the turns in any order (`Game::legal_turns_any_order`: plain
//! pieces' moves from their cell-set landings): the same turns as the ordered listing.
//!
//! Counting (`Game::count_turns`, perft's last ply) counts two-stone turns by formula instead of
//! listing them: it must equal the length of the list, in every variant (Bollwerk 178's stones
//! above all, from its start and its crowded mid-game).

use std::collections::BTreeSet;

use bulwark::compile::bits::{EmptyCells, bit};
use bulwark::compile::ranges::RangeBoard;
use bulwark::core::StoneKindId;
use bulwark::core::{PieceKindId, RegionId};
use bulwark::play::Game;
use bulwark::vm::{Machine, Options};
use bulwark::{BUNDLED, Cell, Occupant, Position, Ruleset, Side, Turn, text};
use proptest::prelude::*;

fn rules(name: &str) -> &'static Ruleset {
    static R: std::sync::OnceLock<Vec<(String, Ruleset)>> = std::sync::OnceLock::new();
    let all = R.get_or_init(|| {
        BUNDLED
            .iter()
            .map(|(n, t)| (n.to_string(), Ruleset::from_source(n, t).unwrap()))
            .collect()
    });
    &all.iter().find(|(n, _)| n == name).unwrap().1
}

/// The start and every position of the variant's perft file (and Bollwerk 178's crowded
/// mid-game).
fn starts(name: &str) -> Vec<String> {
    let mut v = vec![String::new()];
    if name == "bollwerk178" {
        v.push(
            include_str!("positions/crowded-midgame.txt")
                .trim()
                .to_string(),
        );
    }
    let path = format!("{}/tests/perft/{name}.perft", env!("CARGO_MANIFEST_DIR"));
    if let Ok(file) = std::fs::read_to_string(path) {
        v.extend(
            file.lines()
                .filter_map(|l| l.strip_prefix("position: "))
                .map(|p| p.trim().to_string()),
        );
    }
    v
}

/// The moves of every kind whose pieces move together by offsets in cell order
/// (`compile::bits::ShiftProgram`, counted a kind at a time): the pairs of cells (from, to)
/// of its pieces' landings in cell sets, one piece at a time.
fn same_kind_moves(r: &Ruleset, pos: &Position) {
    let Some(bits) = r.bit_moves() else {
        return;
    };
    let mut sets = vec![[0u128; 2]; r.pieces.len()];
    let mut occupied = 0u128;
    for c in r.topo.cells() {
        if let Some((s, k)) = pos.at(c).as_piece() {
            sets[k.index()][s.index()] |= bit(c);
            occupied |= bit(c);
        }
    }
    for side in [Side::White, Side::Black] {
        let enemy = sets.iter().fold(0u128, |m, of| m | of[1 - side.index()]);
        for (k, of) in sets.iter().enumerate() {
            let (Some(shifts), Some(p)) = (bits.shifts(k, side), bits.program(k, side)) else {
                continue;
            };
            let pieces = of[side.index()];
            let mut got = BTreeSet::new();
            let region = |g: bulwark::core::RegionId| r.regions[g.index()].cells[side].low128();
            shifts.each_landing(pieces, occupied, enemy, region, |d, landed| {
                for t in r.topo.cells().filter(|&t| landed & bit(t) != 0) {
                    let from = t.index() as isize - isize::from(d);
                    got.insert((
                        r.topo.name(Cell::new(from as usize)).clone(),
                        r.topo.name(t).clone(),
                    ));
                }
            });
            let mut want = BTreeSet::new();
            for c in r.topo.cells().filter(|&c| pieces & bit(c) != 0) {
                let to = bits.landings(p, &r.links, c, occupied, enemy, |g| {
                    r.regions[g.index()].cells[side].contains(c)
                });
                for t in r.topo.cells().filter(|&t| to & bit(t) != 0) {
                    want.insert((r.topo.name(c).clone(), r.topo.name(t).clone()));
                }
            }
            assert_eq!(
                got,
                want,
                "{}: the moves of kind {} of {side:?} a kind at a time",
                text::write_position(r, pos),
                r.pieces[k].name
            );
        }
    }
}

/// Every piece's movement options, by the plain fast path where its program is plain and by
/// the general interpreter: the same options in the same order.
fn same_options(r: &Ruleset, pos: &Position) {
    same_kind_moves(r, pos);
    let (mut fast, mut general) = (Machine::new(), Machine::general_only());
    // Options taken in any order: chains that repeat one leg found cell by cell.
    let mut any = Machine::new();
    any.set_any_order(true);
    let (mut a, mut b) = (Options::default(), Options::default());
    for c in r.topo.cells() {
        if pos.at(c).as_piece().is_none() {
            continue;
        }
        fast.moves(r, pos, c, &mut a);
        general.moves(r, pos, c, &mut b);
        let show = |o: &Options| -> Vec<(String, bool, String)> {
            o.moves
                .iter()
                .map(|m| {
                    (
                        o.text(&r.topo, m),
                        m.capturing_leg,
                        format!("{:?}", m.stone),
                    )
                })
                .collect()
        };
        assert_eq!(
            show(&a),
            show(&b),
            "{} on {}",
            text::write_position(r, pos),
            r.topo.name(c)
        );
        any.moves(r, pos, c, &mut a);
        let sorted = |o: &Options| {
            let mut v = show(o);
            v.sort();
            v
        };
        assert_eq!(
            sorted(&a),
            sorted(&b),
            "{} on {}: the options in any order",
            text::write_position(r, pos),
            r.topo.name(c)
        );
        // Plain programs in cell sets (`compile::bits`): the cells the interpreter's options
        // land on.
        if let (Some(bits), Some((side, kind))) = (r.bit_moves(), pos.at(c).as_piece())
            && let Some(p) = bits.program(kind.index(), side)
        {
            let (mut occupied, mut enemy) = (0u128, 0u128);
            for d in r.topo.cells() {
                if let Some((s, _)) = pos.at(d).as_piece() {
                    occupied |= bit(d);
                    if s != side {
                        enemy |= bit(d);
                    }
                }
            }
            let got = bits.landings(p, &r.links, c, occupied, enemy, |g| {
                r.regions[g.index()].cells[side].contains(c)
            });
            let want = b.moves.iter().fold(0u128, |m, o| m | bit(o.to));
            let names = |set: u128| -> Vec<String> {
                r.topo
                    .cells()
                    .filter(|&d| set & bit(d) != 0)
                    .map(|d| r.topo.name(d).clone())
                    .collect()
            };
            assert_eq!(
                names(got),
                names(want),
                "{}: the cell sets of the piece on {}",
                text::write_position(r, pos),
                r.topo.name(c)
            );
        }
        // Attack programs in cell sets (games with neutral pieces too): whether the piece
        // captures each enemy piece, as the interpreter answers.
        if let (Some(bits), Some((side, kind))) = (r.bit_attacks(), pos.at(c).as_piece()) {
            for t in r.topo.cells() {
                let Some(victim) = pos
                    .at(t)
                    .as_piece()
                    .and_then(|(s, v)| (s != side).then_some(v))
                else {
                    continue;
                };
                let in_region = |g: RegionId| r.regions[g.index()].cells[side].contains(c);
                let Some(got) = bits.attacks_cell(
                    &r.links,
                    (kind.index(), side),
                    c,
                    (t, victim),
                    &|d: Cell| pos.at(d).is_empty(),
                    in_region,
                ) else {
                    continue;
                };
                assert_eq!(
                    got,
                    general.captures_cell(r, pos, c, t),
                    "{}: whether the piece on {} attacks {} in cell sets",
                    text::write_position(r, pos),
                    r.topo.name(c),
                    r.topo.name(t)
                );
                // The empty cells given as a cell set answer alike.
                let empty = r
                    .topo
                    .cells()
                    .filter(|&d| pos.at(d).is_empty())
                    .fold(0u128, |m, d| m | bit(d));
                assert_eq!(
                    bits.attacks_cell(
                        &r.links,
                        (kind.index(), side),
                        c,
                        (t, victim),
                        &EmptyCells(empty),
                        in_region,
                    ),
                    Some(got),
                    "{}: the piece on {} against {}, the empty cells as a set",
                    text::write_position(r, pos),
                    r.topo.name(c),
                    r.topo.name(t)
                );
            }
        }
        // Placement ranges: single-leg range programs are read straight from the position.
        assert_eq!(
            fast.range(r, pos, c).to_vec(),
            general.range(r, pos, c).to_vec(),
            "{}: the range of the piece on {}",
            text::write_position(r, pos),
            r.topo.name(c)
        );
        // Movements in cell sets on boards with stones (`compile::ranges`), in any order: a
        // program of single legs, or the emits a program of chains begins with, lands on its
        // cell sets (what an option captures and does to a stone read from its cell's
        // occupant); a chain's options come from the interpreter less the emits' (and where
        // the sets say no chain can begin, it has none). The general interpreter's options.
        if let (Some(table), Some((side, kind))) = (r.bit_ranges(), pos.at(c).as_piece()) {
            let lead = table.lead(kind.index(), side);
            let form = table
                .move_program(kind.index(), side)
                .or(lead.map(|l| &l.emits));
            if let Some(p) = form {
                let mut board = RangeBoard::default();
                board.fill(table, pos.cells(), side);
                let cells = table.landings(p, &r.links, &board, c, |g| {
                    r.regions[g.index()].cells[side].contains(c)
                });
                let landed = |t: Cell| {
                    let (captured, fx) = bulwark::vm::landed_on(pos.at(t), r.collectable());
                    let name = r.topo.name(t).clone();
                    let name = if captured {
                        format!("{name}x{name}")
                    } else {
                        name
                    };
                    (name, format!("{fx:?}"))
                };
                let mut got: Vec<(String, String)> = cells.cells().map(landed).collect();
                if let Some(lead) = lead {
                    fast.chain_moves(r, pos, (c, lead.pc), true, &mut a);
                    if !table.may_enter(lead, &r.links, &board, c) {
                        assert!(
                            a.moves.is_empty(),
                            "{}: the chains of the piece on {} begin where the cell sets say \
                             none can",
                            text::write_position(r, pos),
                            r.topo.name(c)
                        );
                    }
                    for m in &a.moves {
                        let option = (a.text(&r.topo, m), format!("{:?}", m.stone));
                        if !(cells.has(m.to) && landed(m.to).0 == option.0) {
                            got.push(option);
                        }
                    }
                }
                general.moves(r, pos, c, &mut b);
                let mut want: Vec<(String, String)> = b
                    .moves
                    .iter()
                    .map(|m| (b.text(&r.topo, m), format!("{:?}", m.stone)))
                    .collect();
                got.sort();
                want.sort();
                assert_eq!(
                    got,
                    want,
                    "{}: the moves in cell sets of the piece on {}",
                    text::write_position(r, pos),
                    r.topo.name(c)
                );
            }
        }
        // Placement ranges in cell sets (`compile::ranges`): the general interpreter's range
        // of the piece where it stands, and, for a sample of cells it could have come from
        // (read as empty), its range on the board with that cell emptied.
        if let (Some(table), Some((side, kind))) = (r.bit_ranges(), pos.at(c).as_piece())
            && let Some(p) = table.program(kind.index(), side)
        {
            let mut board = RangeBoard::default();
            board.fill(table, pos.cells(), side);
            let names = |cells: Vec<Cell>| -> Vec<String> {
                let mut v: Vec<String> = cells.iter().map(|&d| r.topo.name(d).clone()).collect();
                v.sort();
                v
            };
            for v in r.topo.cells() {
                if v != c && v.index() % 5 != c.index() % 5 {
                    continue;
                }
                let got = table.range(p, &r.links, &board, c, v, |g| {
                    r.regions[g.index()].cells[side].contains(c)
                });
                let mut after = pos.clone();
                after.put(v, Occupant::EMPTY);
                after.put(c, pos.at(c));
                let want = general.range(r, &after, c).to_vec();
                assert_eq!(
                    names(got.cells().collect()),
                    names(want),
                    "{}: the range in cell sets of the piece on {}, come from {}",
                    text::write_position(r, pos),
                    r.topo.name(c),
                    r.topo.name(v)
                );
            }
        }
        // Attack queries: the same answer for every target (plain attack programs too).
        for t in r.topo.cells() {
            assert_eq!(
                fast.captures_cell(r, pos, c, t),
                general.captures_cell(r, pos, c, t),
                "{}: does the piece on {} attack {}?",
                text::write_position(r, pos),
                r.topo.name(c),
                r.topo.name(t)
            );
        }
    }
}

fn same_turns(g: &mut Game<'_>) -> Option<Vec<Turn>> {
    same_options(g.rules, g.pos());
    let fast = g.legal_turns();
    assert_eq!(
        g.count_turns(),
        fast.as_ref().map_or(0, Vec::len),
        "{}: the count is not the length of the list",
        text::write_position(g.rules, g.pos())
    );
    same_loud_turns(g, fast.as_ref());
    same_piece_turns(g, fast.as_ref());
    same_any_order(g, fast.as_ref());
    let slow = g.legal_turns_by_testing();
    match (fast, slow) {
        (Ok(a), Ok(b)) => {
            let (sa, sb): (BTreeSet<_>, BTreeSet<_>) = (a.iter().collect(), b.iter().collect());
            if sa != sb {
                let r = g.rules;
                let show = |s: &BTreeSet<&Turn>, o: &BTreeSet<&Turn>| -> Vec<String> {
                    s.difference(o).map(|t| text::turn_text(r, t)).collect()
                };
                panic!(
                    "{}: only the shortcut lists {:?}; only the general path lists {:?}",
                    text::write_position(r, g.pos()),
                    show(&sa, &sb),
                    show(&sb, &sa)
                );
            }
            Some(a)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{}", text::write_position(g.rules, g.pos()));
            None
        }
        (a, b) => panic!(
            "{}: the shortcut says {:?}, the general path {:?}",
            text::write_position(g.rules, g.pos()),
            a.map(|v| v.len()),
            b.map(|v| v.len())
        ),
    }
}

/// The loud turns (the quiescence search's: captures and changes of kind), generated on
/// their own where the board allows it in cell sets: the legal turns that capture or change
/// kind, no more, no fewer, and the same end of the game when there is no turn at all. The
/// quiet turns likewise.
fn same_loud_turns(g: &mut Game<'_>, all: Result<&Vec<Turn>, &bulwark::play::Outcome>) {
    let loud = g.loud_turns();
    let where_ = text::write_position(g.rules, g.pos());
    match (all, loud) {
        (Ok(all), Ok(loud)) => {
            let want = all.iter().filter(|t| t.view().is_loud());
            same_set(g.rules, &where_, "the loud generation", &loud, want);
        }
        (Err(a), Err(b)) => assert_eq!(*a, b, "{where_}"),
        (a, b) => panic!(
            "{where_}: all turns {:?}, the loud ones {:?}",
            a.map(Vec::len),
            b.map(|v| v.len())
        ),
    }
    // The quiet turns (the search's last stage): the legal turns that neither capture nor
    // change kind. Where the game is over, the same end, or none found (a checkmate is told
    // by the loud turns, which come first).
    let mut quiet = Vec::new();
    let got_quiet = g.quiet_turns_into(&mut quiet);
    match (all, got_quiet) {
        (Ok(all), Ok(())) => {
            let want = all.iter().filter(|t| !t.view().is_loud());
            same_set(g.rules, &where_, "the quiet generation", &quiet, want);
        }
        (Err(a), Err(b)) => assert_eq!(*a, b, "{where_}"),
        (Err(_), Ok(())) => assert!(quiet.is_empty(), "{where_}: over, yet quiet turns"),
        (Ok(all), Err(b)) => panic!(
            "{where_}: {} turns, yet the quiet ones say {b:?}",
            all.len()
        ),
    }
}

/// The legal turns in any order (`Game::legal_turns_any_order`, perft's inner plies: plain
/// pieces' moves from their cell-set landings): the same turns, each once, and the same end of
/// the game where there is none.
fn same_any_order(g: &mut Game<'_>, all: Result<&Vec<Turn>, &bulwark::play::Outcome>) {
    let where_ = text::write_position(g.rules, g.pos());
    match (all, g.legal_turns_any_order()) {
        (Ok(all), Ok(any)) => {
            same_set(
                g.rules,
                &where_,
                "the listing in any order",
                &any,
                all.iter(),
            );
        }
        (Err(a), Err(b)) => assert_eq!(*a, b, "{where_}"),
        (a, b) => panic!(
            "{where_}: in order {:?}, in any order {:?}",
            a.map(Vec::len),
            b.map(|v| v.len())
        ),
    }
}

/// One piece's turns (`Game::legal_turns_of_into`, the search's stored turn tried before the
/// others are generated), asked of every cell: the legal turns that move that piece of the
/// side to move, or place or remove stones with it, no more, no fewer. Not given only where
/// the game is over, or where which turns are legal depends on every turn: a priority among
/// captures, a repetition rule, the clock's limit reached, a goal to answer.
fn same_piece_turns(g: &mut Game<'_>, all: Result<&Vec<Turn>, &bulwark::play::Outcome>) {
    let r = g.rules;
    let where_ = text::write_position(r, g.pos());
    let side = g.pos().side;
    let may_refuse = r.turn.capture_compulsory
        || r.turn.most_captures
        || r.repetition.is_some()
        || r.end.goal_answer
        || r.clock.limit.is_some_and(|(n, _)| g.pos().halfmove >= n);
    let mut one = Vec::new();
    for c in r.topo.cells() {
        let given = g.legal_turns_of_into(c, &mut one);
        let Ok(all) = all else {
            assert!(
                one.is_empty(),
                "{where_}: the game is over, yet {c:?} has turns"
            );
            continue;
        };
        if !given {
            assert!(may_refuse, "{where_}: no turns of the piece on {c:?} given");
            assert!(one.is_empty(), "{where_}: refused, yet turns listed");
            continue;
        }
        let ours = matches!(g.pos().at(c).as_piece(), Some((s, _)) if s == side);
        let want = all.iter().filter(|t| {
            ours && t.from() == c
                && !matches!(
                    t,
                    Turn::Castle { .. } | Turn::Drop { .. } | Turn::Pass { .. }
                )
        });
        let what = format!("the piece on {}", r.topo.name(c));
        same_set(r, &where_, &what, &one, want);
    }
}

/// `got`, listed by `what`, holds each turn once and the same turns as `want` (where the
/// position `where_` is of `r`).
fn same_set<'a>(
    r: &Ruleset,
    where_: &str,
    what: &str,
    got: &'a [Turn],
    want: impl Iterator<Item = &'a Turn>,
) {
    let want: BTreeSet<&Turn> = want.collect();
    let set: BTreeSet<&Turn> = got.iter().collect();
    assert_eq!(set.len(), got.len(), "{where_}: {what} lists a turn twice");
    let show = |s: &BTreeSet<&Turn>, o: &BTreeSet<&Turn>| -> Vec<String> {
        s.difference(o).map(|t| text::turn_text(r, t)).collect()
    };
    assert!(
        want == set,
        "{where_}: only {what} lists {:?}; only the full list has {:?}",
        show(&set, &want),
        show(&want, &set)
    );
}

/// The legal turns of a position of `r`, checked as [`same_turns`] checks them.
fn checked_turns(r: &Ruleset, position: &str) -> Vec<Turn> {
    let pos = text::parse_position(r, position).unwrap();
    let mut g = Game::new(r, pos).unwrap();
    same_turns(&mut g).unwrap_or_default()
}

/// The legal turns of a position of `r` as text, sorted (checked as [`checked_turns`]).
fn checked_names(r: &Ruleset, position: &str) -> Vec<String> {
    let mut v: Vec<String> = checked_turns(r, position)
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    v.sort();
    v
}

/// How many of the legal turns of `position` (listed both ways, see [`checked_turns`]) are
/// `which`.
fn checked_count(r: &Ruleset, position: &str, which: impl Fn(&Turn) -> bool) -> usize {
    checked_turns(r, position)
        .iter()
        .filter(|t| which(t))
        .count()
}

fn playout(name: &str, start: usize, choices: &[usize]) {
    let r = rules(name);
    let starts = starts(name);
    let s = &starts[start % starts.len()];
    let pos = if s.is_empty() {
        r.setup.clone()
    } else {
        text::parse_position(r, s).unwrap()
    };
    let mut g = Game::new(r, pos).unwrap();
    for &c in choices {
        let Some(turns) = same_turns(&mut g) else {
            break;
        };
        // Captures first half of the time: more tactics, more pins and checks.
        let captures: Vec<&Turn> = turns.iter().filter(|t| !t.captures().is_empty()).collect();
        let t = if c % 2 == 0 && !captures.is_empty() {
            captures[(c / 2) % captures.len()]
        } else {
            &turns[(c / 2) % turns.len()]
        };
        g.play(t);
    }
}

/// Variants with royal pieces (the shortcuts are only for them); Bollwerk 178 has none.
const ROYAL: &[&str] = &[
    "chess",
    "chess960",
    "3check",
    "5check",
    "racingkings",
    "horde",
    "atomic",
    "shatranj",
    "courier",
    "grand",
    "crazyhouse",
    "shogi",
    "minishogi",
    "xiangqi",
    "janggi",
    "waterloo",
    "border-wars",
    "border-wars-chess",
    "border-wars-shogi",
    "border-wars-xiangqi",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn the_shortcuts_list_the_same_turns_as_testing_every_turn(
        variant in 0..ROYAL.len(),
        start in 0usize..64,
        choices in proptest::collection::vec(0usize..10_000, 0..80),
    ) {
        playout(ROYAL[variant], start, &choices);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Exploding captures (`[blast]`) are played and tested by the shortcuts, quiet moves
    /// not: atomic chess on its own, from its perft positions.
    #[test]
    fn atomic_shortcuts_list_the_same_turns_as_testing_every_turn(
        start in 0usize..8,
        choices in proptest::collection::vec(0usize..10_000, 0..100),
    ) {
        playout("atomic", start, &choices);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Turns that may not give check (`giving-check = "forbidden"`): spared by the sets towards
    /// the enemy royal pieces, or played and those asked through the reach table. Racing kings
    /// on its own, from its perft positions.
    #[test]
    fn giving_check_shortcuts_list_the_same_turns_as_testing_every_turn(
        start in 0usize..8,
        choices in proptest::collection::vec(0usize..10_000, 0..100),
    ) {
        playout("racingkings", start, &choices);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// Bollwerk 178 has no royal piece: what is checked is the count of two-stone turns.
    #[test]
    fn stone_pairs_are_counted_as_many_as_listed(
        start in 0usize..2,
        choices in proptest::collection::vec(0usize..100_000, 0..12),
    ) {
        playout("bollwerk178", start, &choices);
    }
}

#[test]
fn every_royal_variant_and_every_perft_position_is_checked() {
    for name in ROYAL {
        assert!(rules(name).has_royals(), "{name}");
        for i in 0..starts(name).len() {
            playout(name, i, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        }
    }
    // Every bundled variant is either here or has no royal piece.
    for (name, _) in BUNDLED {
        assert!(ROYAL.contains(name) || !rules(name).has_royals(), "{name}");
    }
}

/// An empty board of `r` with the pieces of either side and the stones `placed` (a cell and
/// what stands on it, each modulo what there is), `black` to move or white.
fn random_board(r: &Ruleset, placed: &[(usize, usize)], black: bool) -> Position {
    let mut pos = r.setup.clone();
    for c in r.topo.cells() {
        pos.put(c, Occupant::EMPTY);
    }
    let kinds = r.pieces.len();
    for &(cell, what) in placed {
        let what = what % (2 * kinds + r.stones.len());
        let n = pos.cells().len();
        let o = if what < 2 * kinds {
            let side = if what.is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            };
            Occupant::piece(side, PieceKindId::new(what / 2))
        } else {
            Occupant::stone(StoneKindId::new(what - 2 * kinds))
        };
        pos.put(Cell::new(cell % n), o);
    }
    if black {
        pos.side = Side::Black;
    }
    pos
}

/// Random boards of a small variant whose pieces have one leg per path of every kind (jumps and
/// hops that take, lame leaps, region tests before and after the leg, stones): the VM's
/// straight reading against the general interpreter, for both sides to move.
fn single_leg_board(placed: &[(usize, usize)], black: bool) {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    let r = R.get_or_init(|| {
        let text = include_str!("variants/single-leg.toml");
        Ruleset::from_source("single-leg", text).unwrap()
    });
    let pos = random_board(r, placed, black);
    same_options(r, &pos);
    // A top-level alternative of one leg (`at(home) leg` too) is compiled to `emit`: the same
    // options as the definition that is not (a region test every cell passes after the leg).
    let kind = |id: &str| PieceKindId::new(r.pieces.iter().position(|p| p.id == id).unwrap());
    let twins = [
        ("pawnish", "pawnish-slow"),
        ("jumper", "jumper-slow"),
        ("hopper", "hopper-slow"),
        ("lame", "lame-slow"),
    ];
    assert!(r.pieces[kind("pawnish").index()].moves.plain);
    let mut vm = Machine::new();
    let mut o = Options::default();
    for (fast, slow) in twins {
        let (fast, slow) = (kind(fast), kind(slow));
        // The twin runs the leg as a chain op, not as `emit`.
        let ops = &r.pieces[slow.index()].moves.ops;
        assert!(
            ops.iter()
                .any(|op| matches!(op, bulwark::compile::Op::Leg(_)))
        );
        for c in r.topo.cells() {
            let Some((side, _)) = pos.at(c).as_piece() else {
                continue;
            };
            let [a, b] = [fast, slow].map(|k| {
                vm.moves_as(r, &pos, c, side, k, &mut o);
                let mut v: Vec<(String, String)> = o
                    .moves
                    .iter()
                    .map(|m| (o.text(&r.topo, m), format!("{:?}", m.stone)))
                    .collect();
                v.sort();
                v
            });
            assert_eq!(
                a,
                b,
                "{}: a {} on {}",
                text::write_position(r, &pos),
                r.pieces[fast.index()].id,
                r.topo.name(c)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn one_leg_programs_read_straight_from_the_board_match_the_interpreter(
        placed in proptest::collection::vec((0usize..36, 0usize..64), 1..24),
        black in proptest::bool::ANY,
    ) {
        single_leg_board(&placed, black);
    }
}

/// The variant of single legs beside chains (tests/variants/emit-chains.toml), as written
/// and with every chain setting of `[turn]` switched on.
fn emit_chains(settings: bool) -> &'static Ruleset {
    static R: std::sync::OnceLock<[Ruleset; 2]> = std::sync::OnceLock::new();
    let all = R.get_or_init(|| {
        let text = include_str!("variants/emit-chains.toml");
        let turn = "\n[turn]\nchain-revisits = \"after-capture\"\nchain-ends-home = \"after-capture\"\ncaptured-leave = \"end-of-turn\"\n";
        [
            Ruleset::from_source("emit-chains", text).unwrap(),
            Ruleset::from_source("emit-chains", &format!("{text}{turn}")).unwrap(),
        ]
    });
    &all[usize::from(settings)]
}

#[test]
fn the_emit_chain_variant_puts_single_legs_before_chains() {
    for settings in [false, true] {
        let r = emit_chains(settings);
        for p in &r.pieces {
            let ops = &p.moves.ops;
            assert!(
                matches!(ops[0], bulwark::compile::Op::Emit(_)) && p.moves.chains,
                "{}",
                p.id
            );
        }
        let taker = r.pieces.iter().find(|p| p.id == "taker").unwrap();
        assert!(
            taker
                .moves
                .ops
                .iter()
                .any(|op| matches!(op, bulwark::compile::Op::EmitFrom(..)))
        );
        assert!(matches!(
            taker.attacks.ops[0],
            bulwark::compile::Op::Emit(_)
        ));
        assert!(taker.attacks.chains);
    }
}

/// The legs a chain after the leading single legs begins with are known from the program
/// (through its splits and gotos), so the interpreter runs only where one of them can land; a
/// maximal repetition's choice point, or a region test before the first leg, leaves the
/// chain to run everywhere.
#[test]
fn chains_begin_with_known_legs() {
    let leg_text = |p: &bulwark::compile::Program, entry: &[u16]| -> Vec<String> {
        entry
            .iter()
            .map(|&l| p.legs[usize::from(l)].text.clone())
            .collect()
    };
    for settings in [false, true] {
        let r = emit_chains(settings);
        let piece = |id: &str| r.pieces.iter().find(|p| p.id == id).unwrap();
        let mixed = &piece("mixed").moves;
        assert_eq!(
            leg_text(mixed, mixed.entry.as_deref().unwrap()),
            ["jump(all) over(piece)"]
        );
        let taker = &piece("taker").moves;
        assert_eq!(
            leg_text(taker, taker.entry.as_deref().unwrap()),
            [
                "jump(orthogonal) over(own | arrow-like)",
                "jump(all) over(enemy) take"
            ]
        );
        // The first jump of the maximal chain is not repeated: the choice point comes after.
        let greedy = &piece("greedy").moves;
        assert_eq!(
            leg_text(greedy, greedy.entry.as_deref().unwrap()),
            ["jump(diagonal) over(enemy) take"]
        );
    }
    // A region test before the chain's first leg: no known first legs.
    let text = format!(
        "{}\n[pieces.homer]\nletter = \"H\"\nmoves = \"step(all) | at(home) jump(all) over(piece) jump(all) over(piece)\"\n",
        include_str!("variants/emit-chains.toml")
    );
    let r = Ruleset::from_source("homer", &text).unwrap();
    let homer = r.pieces.iter().find(|p| p.id == "homer").unwrap();
    assert!(homer.moves.chains);
    assert_eq!(homer.moves.entry, None);
    let r = rules("bollwerk178");
    let guard = &r.pieces.iter().find(|p| p.id == "guard").unwrap().moves;
    assert_eq!(
        leg_text(guard, guard.entry.as_deref().unwrap()),
        [
            "jump(forward, forward-diagonal) over(enemy guard) take",
            "jump(all) over(own guard)"
        ]
    );
}

/// The repetitions of one leg that end every path from an op (`Program::closures`, explored
/// cell by cell where the options are only counted): Bollwerk 178's Spy's chain of jumps that
/// capture nothing (B-30), from its first jump and from its repetition; not the Guard's chain,
/// whose jumps may take (B-20), nor the Spy's capturing chain, which goes on after its prefix
/// (B-31). In the test variant: a chain of one jump, a repetition after a step of another
/// kind (from the repetition only), a lame leap repeated; not an alternation of two jumps nor
/// a maximal chain.
#[test]
fn chains_that_repeat_one_leg_and_end_are_closures() {
    let heads = |p: &bulwark::compile::Program| -> Vec<(bool, String)> {
        p.closures
            .iter()
            .map(|c| (c.once, p.legs[usize::from(c.leg)].text.clone()))
            .collect()
    };
    let spy_jump = "jump(all) over(piece | arrow-like)".to_string();
    let r = rules("bollwerk178");
    let piece = |id: &str| &r.pieces.iter().find(|p| p.id == id).unwrap().moves;
    assert_eq!(
        heads(piece("spy")),
        [(false, spy_jump.clone()), (true, spy_jump)]
    );
    assert_eq!(heads(piece("guard")), []);
    let r = emit_chains(false);
    let piece = |id: &str| &r.pieces.iter().find(|p| p.id == id).unwrap().moves;
    let jump = "jump(all) over(piece)".to_string();
    assert_eq!(heads(piece("mixed")), [(false, jump.clone()), (true, jump)]);
    assert_eq!(
        heads(piece("climber")),
        [(
            false,
            "jump(orthogonal) over(piece | arrow-like) capture".to_string()
        )]
    );
    let leap = "leap(knight) via(lshape, empty) capture".to_string();
    assert_eq!(heads(piece("rover")), [(false, leap.clone()), (true, leap)]);
    assert_eq!(heads(piece("taker")), []);
    assert_eq!(heads(piece("greedy")), []);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, .. ProptestConfig::default() })]

    /// Single legs read straight from the position, chains by the interpreter after them: the
    /// interpreter's options, ranges and attack answers.
    #[test]
    fn single_legs_beside_chains_match_the_interpreter(
        placed in proptest::collection::vec((0usize..36, 0usize..64), 1..24),
        black in proptest::bool::ANY,
        settings in proptest::bool::ANY,
    ) {
        let r = emit_chains(settings);
        same_options(r, &random_board(r, &placed, black));
    }
}

/// The cell-set form of a plain program (`compile::bits`) in every variant that has one: rides
/// to the edge as rays, bounded ones walked, steps and leaps as one set per cell. A piece that
/// captures only some enemy kinds, or rides through its own pieces, is left to the VM.
#[test]
fn plain_programs_take_the_cell_set_form_the_board_allows() {
    let r = cell_sets();
    let b = r.bit_moves().expect("118 cells, no stones");
    let forms = |id: &str, side: Side| {
        let k = r.pieces.iter().position(|p| p.id == id).unwrap();
        b.program(k, side)
            .map(bulwark::compile::bits::BitProgram::forms)
    };
    for side in [Side::White, Side::Black] {
        assert_eq!(forms("rook", side), Some(vec!["rays"]));
        assert_eq!(forms("bishop", side), Some(vec!["rays", "leaps"]));
        assert_eq!(forms("short", side), Some(vec!["walk", "walk"]));
        assert_eq!(forms("knight", side), Some(vec!["leaps", "leaps"]));
        assert_eq!(forms("pawn", side), Some(vec!["leaps", "walk", "leaps"]));
        assert_eq!(forms("king", side), Some(vec!["leaps"]));
        assert_eq!(forms("picky", side), None);
        assert_eq!(forms("passer", side), None);
    }
    // Stones, neutral pieces or more than 128 cells: no cell sets.
    for (name, _) in BUNDLED {
        let r = rules(name);
        let allowed = r.topo.len() <= 128 && r.stones.is_empty() && r.neutral.is_none();
        assert_eq!(r.bit_moves().is_some(), allowed, "{name}");
    }
    assert!(rules("bollwerk178").bit_moves().is_none());
    assert!(rules("chess").bit_moves().is_some());
    assert!(rules("xiangqi").bit_moves().is_some());
}

/// Steps, leaps and short walked rides move all of a kind's pieces at once by offsets in
/// cell order; rides to the board's edge do not. A kind with more than twelve offsets keeps
/// to the piece-by-piece form.
#[test]
fn kinds_of_steps_leaps_and_short_rides_move_by_offsets() {
    let shifted = |name: &str, kind: &str| {
        let r = rules(name);
        let k = r.pieces.iter().position(|p| p.name == kind).unwrap();
        let b = r.bit_moves().unwrap();
        assert!(b.program(k, Side::White).is_some(), "{name} {kind}");
        b.shifts(k, Side::White).is_some()
    };
    assert!(shifted("chess", "Pawn"));
    assert!(shifted("chess", "Knight"));
    assert!(shifted("chess", "King"));
    assert!(!shifted("chess", "Queen"));
    assert!(!shifted("chess", "Bishop"));
    assert!(shifted("xiangqi", "Soldier"));
    // Every kind but the royal one is counted a kind at a time; the promoting pawn too (its
    // change fires on reaching a region).
    let chess = rules("chess");
    for (k, p) in chess.pieces.iter().enumerate() {
        assert_eq!(chess.together_kinds() >> k & 1 != 0, !p.royal, "{}", p.name);
    }
    let r = cell_sets();
    let b = r.bit_moves().unwrap();
    let by_id = |n: &str| r.pieces.iter().position(|p| p.id == n).unwrap();
    // The pawn's double step is a walked ride from its home region.
    for id in ["pawn", "king"] {
        assert!(b.shifts(by_id(id), Side::White).is_some(), "{id}");
    }
    // Sixteen offsets: two distances along each of eight directions. The knight's twelve
    // leaps take more offsets than twelve: cells past a hole are numbered one less.
    assert!(b.shifts(by_id("short"), Side::White).is_none());
    assert!(b.shifts(by_id("knight"), Side::White).is_none());
    assert!(b.shifts(by_id("rook"), Side::White).is_none());
    assert!(b.shifts(by_id("rightward"), Side::White).is_none());
}

/// Pawns counted a kind at a time: the two on the seventh rank land where they promote, so
/// each of their moves is played out and counted (four promotions each); the pinned pawn is
/// left to the piece-by-piece path (no move); the two free pawns' single and double steps are
/// counted unseen; the king has three cells.
#[test]
fn pawns_counted_together_play_out_promotions_and_leave_pinned_pawns_alone() {
    let r = rules("chess");
    let pos = text::parse_position(r, "4k3/PP6/8/8/1b6/8/3P1PP1/4K3 w - - 0 1").unwrap();
    let mut g = Game::new(r, pos).unwrap();
    let turns = same_turns(&mut g).expect("the game goes on");
    assert_eq!(turns.len(), 15);
    assert_eq!(g.count_turns(), 15);
}

fn cell_sets() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        let text = include_str!("variants/cell-sets.toml");
        Ruleset::from_source("cell-sets", text).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    /// Random boards of pieces only: every piece's landings in cell sets are its options'
    /// cells; and the count of legal turns (which counts plain pieces in cell sets) is the
    /// length of the list that tests every turn.
    #[test]
    fn cell_set_landings_match_the_interpreter(
        placed in proptest::collection::vec((0usize..118, 0usize..64), 1..40),
        black in proptest::bool::ANY,
    ) {
        let r = cell_sets();
        let mut pos = r.setup.clone();
        let kinds = r.pieces.len();
        for &(cell, what) in &placed {
            let what = what % (2 * kinds + 1);
            let o = if what < 2 * kinds {
                let side = if what.is_multiple_of(2) { Side::White } else { Side::Black };
                Occupant::piece(side, PieceKindId::new(what / 2))
            } else {
                Occupant::EMPTY
            };
            pos.put(Cell::new(cell), o);
        }
        if black {
            pos.side = Side::Black;
        }
        same_options(r, &pos);
        if let Ok(mut g) = Game::new(r, pos) {
            same_turns(&mut g);
        }
    }
}

/// The shortcut follows the royal pieces from where they stood to where they went; a change of
/// kind into or out of a royal kind makes that wrong, so those turns are tested on the board
/// (`tests/variants/royal-changes.toml`: a pawn may promote to a King, a royal Prince turns
/// into a Queen on the last rank).
#[test]
fn changes_into_and_out_of_royal_kinds_are_judged_by_the_royal_pieces_after_the_turn() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/royal-changes.toml"
    );
    let r = Ruleset::load_named(path).unwrap();
    let d8 = r.topo.parse_cell("d8").unwrap();
    let promotions = |text: &str| -> Vec<char> {
        let mut to_d8: Vec<char> = checked_turns(&r, text)
            .iter()
            .filter(|t| t.to() == Some(d8))
            .map(|t| t.promote().map_or('-', |k| r.pieces[k.index()].letter))
            .collect();
        to_d8.sort_unstable();
        to_d8
    };
    // A pawn reaching d8, which the rook on a8 attacks: a Queen may stand there, a second King
    // may not.
    assert_eq!(promotions("r6k/3P4/8/8/8/8/8/4K3 w - - 0 1"), vec!['Q']);
    // Out of the rook's line both are legal.
    assert_eq!(
        promotions("r1n4k/3P4/8/8/8/8/8/4K3 w - - 0 1"),
        vec!['K', 'Q']
    );
    // White's royal piece is a Prince: it may step onto the attacked d8, where it is a Queen,
    // no longer royal.
    assert_eq!(promotions("r6k/3I4/8/8/8/8/8/8 w - - 0 1"), vec!['Q']);
}

/// The `hands.toml` test variant (drops onto the own first rank) with the pieces of `pieces`
/// (TOML tables) added.
fn hands_with(name: &str, pieces: &str) -> Ruleset {
    let source = format!(
        "{}\n{pieces}[setup]\nposition = \"2k2/5/5/5/2K2[] w\"\n",
        include_str!("variants/hands.toml")
            .split("[setup]")
            .next()
            .unwrap(),
    );
    Ruleset::from_source(name, &source).unwrap()
}

/// The `hands.toml` test variant with a royal Crown that goes into the reserve and rooks.
fn hands_with_crown(name: &str) -> Ruleset {
    hands_with(
        name,
        "[pieces.crown]\nletter = \"C\"\nroyal = true\nmoves = \"step(all) capture\"\nreserve = 0\n\
         [pieces.rook]\nletter = \"R\"\nmoves = \"ride(orthogonal) capture\"\n",
    )
}

/// A royal piece dropped from the hand is a royal piece more: the drop is tested like a move.
/// The `hands.toml` test variant with a royal Crown in the reserve and Black rooks.
#[test]
fn a_royal_piece_dropped_must_not_stand_attacked() {
    let r = hands_with_crown("hands-crown.toml");
    for (text, expect) in [
        // The rook on a2 attacks a1, the one on e3 attacks e1.
        ("2k2/5/5/r4/2K2[C] w", vec!["b1", "d1", "e1"]),
        ("2k2/5/4r/5/2K2[C] w", vec!["a1", "b1", "d1"]),
    ] {
        let mut drops: Vec<String> = checked_turns(&r, text)
            .iter()
            .filter(|t| t.dropped().is_some())
            .map(|t| r.topo.name(t.from()).to_lowercase())
            .collect();
        drops.sort();
        assert_eq!(drops, expect, "{text}");
    }
}

/// A plain program whose (leg, vector) pairs can never land on one cell skips the check for
/// repeated landings (`Program::disjoint`); any overlap, a ride's multiples included, keeps it.
#[test]
fn plain_programs_without_overlapping_landings_are_marked_disjoint() {
    let pieces = [
        ("a", "ride(all) capture", true),
        ("b", "leap(knight) capture | step(all) capture", true),
        // The pawn's step and double step: one cell and two cells ahead.
        ("c", "step(forward) | at(home) ride(forward) dist(2)", true),
        ("d", "step(orthogonal) | ride(orthogonal) capture", false),
        // Two cells ahead both ways (a ride's multiple of a shorter vector).
        ("e", "leap([0,2]) | ride(forward)", false),
        ("f", "step(forward) | step(forward) capture", false),
    ];
    // The tiny board without its stones: the quiet moves of a plain piece are counted as found.
    let mut source = include_str!("variants/tiny.toml")
        .split("[stones.wall]")
        .next()
        .unwrap()
        .to_string();
    for (letter, moves, _) in &pieces {
        source += &format!(
            "[pieces.{letter}]\nletter = \"{}\"\nmoves = \"{moves}\"\n",
            letter.to_uppercase()
        );
    }
    source += "[pieces.king]\nletter = \"K\"\nroyal = true\nmoves = \"step(all) capture\"\n";
    source += "[setup]\nposition = \"3k/4/4/K3 w\"\n";
    let r = Ruleset::from_source("disjoint.toml", &source).unwrap();
    for (k, (letter, moves, disjoint)) in pieces.iter().enumerate() {
        let prog = &r.pieces[k].moves;
        assert!(prog.plain, "{letter}: {moves}");
        assert_eq!(prog.disjoint, *disjoint, "{letter}: {moves}");
        // Counted (each landing once, repeats or not) as many as listed and as tested.
        let turns = checked_turns(&r, &format!("3k/4/4/K{}2 w", letter.to_uppercase()));
        assert!(
            turns
                .iter()
                .any(|t| t.from() == r.topo.parse_cell("b1").unwrap())
        );
    }
}

/// The tiny test board with a king, a rook and a bishop (the kinds a change may choose) and
/// `pieces` (a region and a piece that changes kind on it), no stones.
fn tiny_with_a_change(name: &str, pieces: &str) -> Ruleset {
    let mut source = include_str!("variants/tiny.toml")
        .split("[stones.wall]")
        .next()
        .unwrap()
        .to_string();
    source += r#"
[pieces.king]
letter = "K"
royal = true
moves = "step(all) capture"

[pieces.rook]
letter = "R"
moves = "ride(orthogonal) capture"

[pieces.bishop]
letter = "B"
moves = "ride(diagonal) capture"

[setup]
position = "3k/4/4/K3 w"
"#;
    source += pieces;
    Ruleset::from_source(&format!("{name}.toml"), &source).unwrap()
}

/// A plain piece whose only change of kind is on reaching a region is asked once where it
/// fires (`reach`: on every move into the region, from inside it too; `enter`: only from
/// outside): counted as many as listed and as tested, inside and outside the region.
#[test]
fn a_change_on_reaching_a_region_fires_as_tested_from_inside_and_outside() {
    let r = tiny_with_a_change(
        "reach",
        r#"
[regions.far]
white = "a3-d4"
black = "a1-d2"

[pieces.reacher]
letter = "A"
moves = "step(forward) | step(sideways)"
changes = [{ on = "reach", region = "far", to = ["rook", "bishop"], optional = true }]

[pieces.enterer]
letter = "E"
moves = "step(forward) | step(sideways)"
changes = [{ on = "enter", region = "far", to = ["rook", "bishop"], optional = true }]
"#,
    );
    let changes = |position: &str| checked_count(&r, position, |t| t.promote().is_some());
    // Two kinds to choose from: a move that changes kind is two turns (and one that declines
    // it), one that does not is one, so a count that misses a change differs from the list.
    // (The changes are optional: a piece inside the region where a compulsory change always
    // happens could not stand there, and position text refuses it.)
    // Below the region: the step into it changes kind either way.
    assert_eq!(changes("3k/4/1A2/K3 w"), 2);
    assert_eq!(changes("3k/4/1E2/K3 w"), 2);
    // Inside it: every move changes a `reach` piece, none an `enter` piece.
    assert_eq!(changes("3k/1A2/4/K3 w"), 6);
    assert_eq!(changes("3k/1E2/4/K3 w"), 0);
}

/// A change of kind on a move into, within or out of a zone (`on = "zone"`, shogi's
/// promotion) fires on every move of a piece in the zone and, from outside, on the moves that
/// land in it: counted as many as listed and as tested, with one such piece (a piece at a
/// time) and with two (a kind at a time, an offset at a time).
#[test]
fn a_change_in_a_zone_fires_on_moves_into_within_and_out_of_it() {
    let r = tiny_with_a_change(
        "zone",
        r#"
[regions.zone]
white = "a3-d4"
black = "a1-d2"

[pieces.zoner]
letter = "Z"
moves = "step(forward) | step(backward) | step(sideways)"
changes = [{ on = "zone", region = "zone", to = ["rook", "bishop"], optional = true }]
"#,
    );
    let changes = |position: &str| checked_count(&r, position, |t| t.promote().is_some());
    // Two kinds to choose from: a move that changes kind is two turns (and one that declines
    // it), so a count that misses a change, or finds one where there is none, differs.
    // Below the zone: only the step forward into it changes kind.
    assert_eq!(changes("3k/4/1Z2/K3 w"), 2);
    // In it: every move, the step back out included (four steps).
    assert_eq!(changes("3k/1Z2/4/K3 w"), 8);
    // Two below (a kind at a time): each one's step into the zone.
    assert_eq!(changes("3k/4/1Z1Z/K3 w"), 4);
    // One in, one below: the first's four moves, the second's one into the zone.
    assert_eq!(changes("3k/1Z2/3Z/K3 w"), 10);
}

/// Beyond an enemy piece on a line from the royal piece, a rider stays blocked whatever the
/// mover does, but a hopper does not: with two screens (an enemy soldier, then an own rook)
/// between the General and a Cannon, the rook may not leave the file. (The sensitive lines
/// stop at the first enemy piece only where no enemy hopper or passing rider is present.)
#[test]
fn an_own_piece_behind_an_enemy_screen_is_pinned_by_a_hopper() {
    let r = rules("xiangqi");
    let turns: Vec<String> = checked_turns(r, "4k4/9/4c4/9/9/4R4/9/4p4/9/4K4 w - - 0 1")
        .iter()
        .map(|t| text::turn_text(r, t))
        .collect();
    assert_eq!(
        turns,
        ["e1-f1", "e1-d1", "e5-e6", "e5-e7", "e5xe8", "e5-e4"],
        "the rook's moves along rank 5 would open the Cannon's line"
    );
}

/// Castling through a cell that only a piece read by the interpreter attacks (a cannon's
/// capture over a screen has no cell-set form): the cell is asked with a stand-in enemy piece
/// on it, on the copy of the position the interpreter reads.
#[test]
fn castling_through_a_cell_a_cannon_attacks_is_refused() {
    const TEXT: &str = r#"
[game]
name = "Castle past a cannon"

[board]
files = ["a", "b", "c", "d", "e"]
ranks = 4
mask = """
#####
#####
#####
#####
"""

[notation]
fields = ["castling"]

[pieces.king]
letter = "K"
royal = true
moves = "step(all) capture"

[pieces.rook]
letter = "R"
moves = "ride(orthogonal) capture"

[pieces.cannon]
letter = "C"
moves = "ride(orthogonal) | hop(orthogonal) capture-only"

[[castling]]
side = "white"
letter = "K"
king = "b1"
king-to = "d1"
rook = "e1"
rook-to = "c1"
empty = "c1 d1"
safe = "b1 c1 d1"

[setup]
position = "k4/5/5/1K2R w K"
"#;
    let r = Ruleset::from_source("castle-hop", TEXT).unwrap();
    let castles = |position: &str| checked_count(&r, position, |t| t.castle().is_some());
    // The cannon on c4 has no screen on the c file: c1 is not attacked.
    assert_eq!(castles("k1c2/5/5/1K2R w K"), 1);
    // Over the white rook on c2 it would capture on c1, which the king passes.
    assert_eq!(castles("k1c2/5/2R2/1K2R w K"), 0);
    // Over the rook on d2 it would capture on d1, where the king ends.
    assert_eq!(castles("k2c1/5/3R1/1K2R w K"), 0);
}

/// Placement ranges in cell sets (`compile::ranges`) on Bollwerk 178's 178 cells, with its
/// stones: every range program of paths of one or two legs has a form (lame leaps checked
/// path by path, rides to the first cell they may not pass, jumps, hops; the Spy's second leg
/// goes on from each empty cell of its first); a game without stones has no table.
#[test]
fn placement_ranges_take_the_cell_set_form_of_wide_boards() {
    let r = rules("bollwerk178");
    let table = r.bit_ranges().expect("178 cells with stones");
    let forms = |id: &str| {
        let k = r.pieces.iter().position(|p| p.id == id).unwrap();
        table.program(k, Side::White).map(|p| p.forms().join(" "))
    };
    assert_eq!(forms("queen"), Some("rays".into()));
    assert_eq!(forms("knight"), Some("lame".into()));
    assert_eq!(forms("kings-knight"), Some("lame leaps".into()));
    assert_eq!(forms("gold-runner"), Some("rays leaps".into()));
    assert_eq!(forms("cannon"), Some("rays hop".into()));
    assert_eq!(forms("guard"), Some("leaps walk jump jump".into()));
    assert_eq!(
        forms("spy"),
        Some("leaps jump jump+jump jump+leaps leaps+jump".into())
    );
    assert!(rules("chess").bit_ranges().is_none());
}

/// Movements in cell sets on Bollwerk 178's 178 cells, with its stones: every movement
/// program whose paths are single legs taking nothing in passing has a form (the lame
/// knight's leaps of B-13, rides, hops, steps), and the chains of the Guard (B-20) and the
/// Spy (B-30, B-31) have none (their paths have more legs).
#[test]
fn b13_single_leg_movements_take_the_cell_set_form_of_wide_boards() {
    let r = rules("bollwerk178");
    let table = r.bit_ranges().expect("178 cells with stones");
    let forms = |id: &str| {
        let k = r.pieces.iter().position(|p| p.id == id).unwrap();
        table
            .move_program(k, Side::Black)
            .map(|p| p.forms().join(" "))
    };
    assert_eq!(forms("queen"), Some("rays".into()));
    assert_eq!(forms("knight"), Some("lame".into()));
    assert_eq!(forms("kings-knight"), Some("lame leaps".into()));
    assert_eq!(forms("elephant"), Some("leaps lame".into()));
    assert_eq!(forms("marshal"), Some("lame rays".into()));
    assert_eq!(forms("chancellor"), Some("lame rays".into()));
    assert_eq!(forms("gold-runner"), Some("rays leaps".into()));
    assert_eq!(forms("cannon"), Some("rays hop".into()));
    assert_eq!(forms("guard"), None);
    assert_eq!(forms("spy"), None);
    // The chains' leading emits: the Guard's steps and double step (B-20), the Spy's king
    // step (B-30); the legs their chains begin with are known.
    let lead = |id: &str| {
        let k = r.pieces.iter().position(|p| p.id == id).unwrap();
        table
            .lead(k, Side::Black)
            .map(|l| (l.emits.forms().join(" "), l.pc, l.knows_entry()))
    };
    assert_eq!(lead("guard"), Some(("leaps leaps walk".into(), 3, true)));
    assert_eq!(lead("spy"), Some(("leaps".into(), 1, true)));
    assert_eq!(lead("queen").map(|l| l.1), None);
}

/// A stalemate whose side to move has quiet turns by the rules of movement, each illegal:
/// the loud generation tests quiet turns until one is legal (or finds one legal untested, off
/// the cells that attacks on the royal pieces need), and here none is, so the game's end is
/// found (as the full list finds it), not taken for a position without loud turns.
#[test]
fn loud_turns_find_a_stalemate_whose_quiet_turns_are_all_illegal() {
    // Chess (a draw); xiangqi and shogi (the stalemated side loses, by their bundled files).
    for (name, position, winner) in [
        ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", None),
        // A pinned knight's four moves, on the line that the bishop's attack needs.
        ("chess", "8/8/8/3b4/8/6p1/5kN1/7K w - - 0 1", None),
        (
            "xiangqi",
            "3k5/R8/9/9/9/9/9/9/9/4RK3 b - - 0 1",
            Some(Side::White),
        ),
        (
            "shogi",
            "8k/6G2/7G1/9/9/9/9/9/K8[] b - - 0 1",
            Some(Side::White),
        ),
    ] {
        let r = rules(name);
        let pos = text::parse_position(r, position).unwrap();
        let mut g = Game::new(r, pos).unwrap();
        assert!(same_turns(&mut g).is_none(), "{name}: the game goes on");
        let o = g.loud_turns().unwrap_err();
        assert_eq!(o.winner, winner, "{name}: {o:?}");
    }
}

/// A small board with a king, a rook, a cannon (a hopper), a short rider (two or three cells
/// straight, the first passed over) and a piece that only steps left.
fn screen() -> &'static Ruleset {
    static R: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        let text = r#"
[game]
name = "Screen"

[board]
files = ["a", "b", "c", "d", "e"]
ranks = 5
mask = """
#####
#####
#####
#####
#####
"""

[end]
no-pieces = "ignored"
immobilized = "ignored"
checkmate = "loses"
stalemate = "draw"

[pieces.king]
letter = "K"
royal = true
moves = "step(all) capture"

[pieces.short]
letter = "S"
moves = "ride(orthogonal) dist(2..3) capture"

[pieces.rook]
letter = "R"
moves = "ride(orthogonal) capture"

[pieces.cannon]
letter = "C"
moves = "ride(orthogonal) | hop(orthogonal) capture-only"

[pieces.leftward]
letter = "L"
moves = "step(left)"

[setup]
position = "k4/5/5/5/K4 w"
"#;
        Ruleset::from_source("screen", text).unwrap()
    })
}

/// A quiet move is legal untested only where it lands off the cells that an attack on a royal
/// piece needs empty: here the only quiet move of a piece read from cell sets lands between a
/// cannon and the king (a screen), so the king's side is stalemated, and the loud generation
/// must say so rather than take that move as proof that the game goes on.
#[test]
fn loud_turns_refuse_a_quiet_move_that_screens_a_cannon() {
    let r = screen();
    let pos = text::parse_position(r, "c4/5/1L3/4r/K1k2 w").unwrap();
    let mut g = Game::new(r, pos).unwrap();
    assert!(same_turns(&mut g).is_none(), "the game goes on");
    let o = g.loud_turns().unwrap_err();
    assert_eq!(o.winner, None, "{o:?}");
}

/// Counting (perft's last ply) judges the royal piece's moves from its cell-set landings, the
/// cell it leaves read as empty: the short rider on b1 does not reach the king on b2 (one cell
/// away) but is blocked by it from b3, which the king's step there opens. Seven legal turns
/// (a1, a2, a3, b1 taking the rider, c1, c2, c3), counted and listed alike.
#[test]
fn a_counted_royal_move_leaves_its_cell_empty_for_the_attacks() {
    let r = screen();
    let pos = text::parse_position(r, "4k/5/5/1K3/1s3 w").unwrap();
    let mut g = Game::new(r, pos).unwrap();
    let turns = same_turns(&mut g).expect("the game goes on");
    let mut names: Vec<String> = turns.iter().map(|t| text::turn_text(r, t)).collect();
    names.sort();
    let want = [
        "b2-a1", "b2-a2", "b2-a3", "b2-c1", "b2-c2", "b2-c3", "b2xb1",
    ];
    assert_eq!(names, want);
    assert_eq!(g.count_turns(), 7);
}

/// The reach table's cell sets (per target cell, kind and side, the cells from which a piece
/// could capture there), read by the attack test on boards of up to 128 cells, hold exactly
/// the reach maps' answers, in every bundled variant whose board is small enough.
#[test]
fn reach_cell_sets_hold_the_reach_maps_answers() {
    let mut checked = 0;
    let names = BUNDLED.iter().map(|(n, _)| *n).chain(["cell-sets"]);
    for name in names {
        let r = if name == "cell-sets" {
            cell_sets()
        } else {
            rules(name)
        };
        let reach = r.attack_reach();
        let topo = &r.topo;
        for to in topo.cells() {
            let Some(row) = reach.from_set_row(to) else {
                assert!(
                    topo.len() > 128,
                    "{name}: no cell sets on {} cells",
                    topo.len()
                );
                continue;
            };
            for k in 0..r.pieces.len() {
                for side in [Side::White, Side::Black] {
                    for from in topo.cells() {
                        let kind = PieceKindId::new(k);
                        let want = reach.could_capture(
                            kind,
                            side,
                            topo.offset_key(from),
                            topo.offset_key(to),
                        );
                        let got = row[2 * k + side.index()] & bit(from) != 0;
                        assert_eq!(
                            got,
                            want,
                            "{name}: {} from {} to {}",
                            r.pieces[k].name,
                            topo.name(from),
                            topo.name(to)
                        );
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 10);
}

/// The turns a generator lists in `pos`, as turn texts.
fn listed(g: &mut bulwark::play::Generator, r: &Ruleset, pos: &Position) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    g.turns(r, pos, |t| {
        out.insert(text::turn_text(r, &t.to_turn()));
    })
    .unwrap();
    out
}

/// A search asks whether the side to move is in check and then for its turns: the census of
/// the pieces taken for the first answer is kept for the second, and must be reused only for
/// the same cells and the same side to move. Each position below is asked after another
/// whose census, reused, would list another side's turns or miss a check.
#[test]
fn a_kept_census_is_reused_only_for_the_same_cells_and_side() {
    let r = rules("chess");
    let at = |s: &str| text::parse_position(r, s).unwrap();
    // Same cells, the other side to move.
    let white = at("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1");
    let black = at("4k3/8/8/8/8/8/3PP3/4K3 b - - 0 1");
    // The rook on another cell: it gives check in the second.
    let quiet = at("4k3/8/8/8/8/8/3PP3/R3K3 b - - 0 1");
    let check = at("R3k3/8/8/8/8/8/3PP3/4K3 b - - 0 1");
    for (first, then) in [
        (&white, &black),
        (&black, &white),
        (&quiet, &check),
        (&check, &quiet),
    ] {
        let want = listed(&mut bulwark::play::Generator::default(), r, then);
        let mut g = bulwark::play::Generator::default();
        g.royals_safe(r, first, first.side);
        let (a, b) = (
            text::write_position(r, first),
            text::write_position(r, then),
        );
        assert_eq!(listed(&mut g, r, then), want, "{b} asked after {a}");
        // Asked of the same position, the kept census gives the same turns.
        g.royals_safe(r, then, then.side);
        assert_eq!(listed(&mut g, r, then), want, "{b} asked after itself");
    }
}

/// In check, a turn that changes no cell of any attack on the royal piece (neither the
/// attacker's cell nor a cell its attack passes) leaves the check standing: it is refused
/// without being played (`Sensitive::compute_evasions`). The turns that remain must be the
/// ones that capture the attacker, block it, move a hopper's screen away, or move the royal
/// piece, as testing every turn finds them.
#[test]
fn in_check_only_turns_that_touch_an_attack_can_answer_it() {
    // A Cannon checks over the Rook: the Rook leaves the file (a move along it keeps the
    // screen; taking the Cannon on e8 leaves the Rook between the Generals), or the General
    // steps aside.
    assert_eq!(
        checked_names(rules("xiangqi"), "4k4/9/4c4/9/9/4R4/9/9/9/4K4 w - - 0 1"),
        [
            "e1-d1", "e1-f1", "e5-a5", "e5-b5", "e5-c5", "e5-d5", "e5-f5", "e5-g5", "e5-h5",
            "e5-i5", "e5xe8"
        ]
    );
    // A rook checks along the first rank: a knight dropped between, or the king steps off it.
    assert_eq!(
        checked_names(rules("crazyhouse"), "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1"),
        ["N@b1", "N@c1", "N@d1", "e1-d2", "e1-e2", "e1-f2"]
    );
    // A knight checks (a free leap): the bishop takes it, or the king steps where the knight
    // does not reach.
    assert_eq!(
        checked_names(rules("chess"), "4k3/8/8/8/8/3n4/2B5/4K3 w - - 0 1"),
        ["c2xd3", "e1-d1", "e1-d2", "e1-e2", "e1-f1"]
    );
}

/// Out of check, perft's last ply counts a drop without reporting or testing it where the
/// sensitive cells leave its cell alone. A piece dropped between a royal piece and an enemy
/// hopper is a screen that opens the hopper's line: those drops are tested (and refused), and
/// the count still equals the list. The `hands.toml` test variant with a Cannon and a Block.
#[test]
fn a_drop_that_would_be_a_hoppers_screen_is_tested_not_counted_unseen() {
    let r = hands_with(
        "hands-cannon.toml",
        "[pieces.cannon]\nletter = \"C\"\nmoves = \"hop(orthogonal) capture\"\nreserve = 0\n\
         [pieces.block]\nletter = \"B\"\nmoves = \"step(orthogonal)\"\nreserve = 0\n",
    );
    // The Cannon on e1 has no screen towards the King on a1: a Block dropped on b1, c1 or d1
    // would be one. Only the King's steps are legal.
    let turns: Vec<String> = checked_turns(&r, "2k2/5/5/5/K3c[B] w")
        .iter()
        .map(|t| text::turn_text(&r, t))
        .collect();
    assert_eq!(turns, ["a1-a2", "a1-b2", "a1-b1"]);
    // With the Cannon off the first rank every drop is legal, counted unseen.
    assert_eq!(
        checked_count(&r, "2k2/5/4c/5/K4[B] w", |t| t.dropped().is_some()),
        4
    );
}

/// Where giving check is forbidden (`[turn] giving-check = "forbidden"`), counting turns
/// unseen needs both the sets towards the mover's royal pieces and those towards the enemy's,
/// and a piece may not arrive unseen where its kind could attack the enemy King. A 6×6 game
/// of its own with every route a turn takes: pieces in cell sets (Rook, Knight; their quiet
/// moves counted unseen), a hopper the interpreter lists (Cannon; its turns reported and
/// judged one by one in such games), a Pawn that promotes on arriving, drops from the hand
/// (counted unseen). Playouts from several positions, each list compared with testing every
/// turn and with the count.
#[test]
fn giving_check_forbidden_counts_every_route_as_it_lists() {
    let source = r#"
[game]
name = "No checks"

[board]
files = ["a", "b", "c", "d", "e", "f"]
ranks = 6
mask = """
######
######
######
######
######
######
"""

[regions.last-rank]
white = "a6-f6"
black = "a1-f1"

[regions.everywhere]
white = "a1-f6"
black = "a1-f6"

[turn]
giving-check = "forbidden"

[drops]
region = "own everywhere"

[end]
no-pieces = "ignored"
immobilized = "ignored"

[pieces.king]
letter = "K"
royal = true
moves = "step(all) capture"

[pieces.rook]
letter = "R"
moves = "ride(orthogonal) capture"
captures-to = "reserve"
reserve = 0

[pieces.knight]
letter = "N"
moves = "leap(knight) capture"
captures-to = "reserve"
reserve = 0

[pieces.cannon]
letter = "C"
moves = "step(orthogonal) | hop(orthogonal) capture-only"
captures-to = "reserve"
reserve = 0

[pieces.pawn]
letter = "P"
promotes-in = "last-rank"
promotes-to = ["rook", "knight", "cannon"]
moves = "step(forward) | step(forward-diagonal) capture-only"
captures-to = "reserve"
reserve = 0

[setup]
position = "1k4/pp1c2/2n3/3N2/2P1PP/R2CK1[] w"
"#;
    let r = Ruleset::from_source("no-checks.toml", source).unwrap();
    let starts = [
        "1k4/pp1c2/2n3/3N2/2P1PP/R2CK1[] w",
        // A Pawn a step from promoting next to the enemy King's file, pieces in hand.
        "2k3/P4r/6/2C3/6/1K4[RNC] w",
        // Lines from both sides crossing: pins, screens and discovered attacks.
        "k1r3/6/2C3/6/2R1c1/2K3[Nn] w",
    ];
    for (i, s) in starts.iter().enumerate() {
        for seed in 0..6usize {
            let mut g = Game::new(&r, text::parse_position(&r, s).unwrap()).unwrap();
            for ply in 0..30usize {
                let Some(turns) = same_turns(&mut g) else {
                    break;
                };
                let t = &turns[(seed * 7919 + ply * 104_729 + i) % turns.len()];
                g.play(t);
            }
        }
    }
}

/// A step of the only royal piece is judged without being played (its destination asked
/// through the attackers' cell-set forms, its own cell read as empty); with a second royal
/// piece on the board every step is played and both asked.
#[test]
fn a_royal_step_is_judged_with_its_cell_left_and_every_royal_piece_asked() {
    let r = hands_with_crown("hands-two-royals.toml");
    let texts = |turns: &[Turn]| -> Vec<String> {
        let mut to: Vec<String> = turns.iter().map(|t| text::turn_text(&r, t)).collect();
        to.sort();
        to
    };
    // The rook on c5 checks the King on c3: stepping back to c2 stays on its line (the King's
    // own cell does not shield c2); c4 is on it, b4 next to the Black King.
    assert_eq!(
        texts(&checked_turns(&r, "k1r2/5/2K2/5/5[] w")),
        ["c3-b2", "c3-b3", "c3-d2", "c3-d3", "c3-d4"]
    );
    // A royal Crown dropped on a1 behind the King on a3; the rook then checks the King from
    // a4. The King may only take it: stepping off the file would leave the Crown attacked.
    let pos = text::parse_position(&r, "4k/1r3/K4/5/5[C] w").unwrap();
    let mut g = Game::new(&r, pos).unwrap();
    for played in ["C@a1", "b4-a4"] {
        let turns = same_turns(&mut g).unwrap();
        let t = turns
            .iter()
            .find(|t| text::turn_text(&r, t) == played)
            .unwrap_or_else(|| panic!("{played} among {:?}", texts(&turns)))
            .clone();
        g.play(&t);
    }
    assert_eq!(texts(&same_turns(&mut g).unwrap()), ["a3xa4"]);
}

/// A turn of a piece that is not royal, or a drop, is judged without being played where the
/// mover has one royal piece: the cells it empties read as empty, the one it fills as
/// occupied, the pieces it takes as gone. Each list is compared with testing every turn.
#[test]
fn turns_of_other_pieces_are_judged_unplayed_with_the_cells_they_empty_and_fill() {
    // En passant empties two cells of the fifth rank: the rook on h5 would then reach the
    // King on a5. The pawn's step forward leaves the black pawn between them.
    let ep = checked_names(rules("chess"), "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    assert!(ep.contains(&"b5-b6".to_string()), "{ep:?}");
    assert!(!ep.iter().any(|t| t.contains("xc6")), "{ep:?}");
    // A knight pinned on the first rank may not move; the bishop beside the King may.
    let pinned = checked_names(rules("chess"), "4k3/8/8/8/8/8/8/r1N1KB2 w - - 0 1");
    assert!(!pinned.iter().any(|t| t.starts_with("c1")), "{pinned:?}");
    assert!(pinned.contains(&"f1-e2".to_string()), "{pinned:?}");
    // A rook checks along the first rank: the bishop steps between (its destination is then
    // occupied), or the King steps off the rank.
    assert_eq!(
        checked_names(rules("chess"), "4k3/8/8/8/8/8/2B5/r3K3 w - - 0 1"),
        ["c2-b1", "c2-d1", "e1-d2", "e1-e2", "e1-f2"]
    );
    // Two rooks check along the first rank: a knight dropped on either side blocks one of
    // them only, so no drop is legal.
    assert_eq!(
        checked_names(rules("crazyhouse"), "4k3/8/8/8/8/8/8/r3K2r[N] w - - 0 1"),
        ["e1-d2", "e1-e2", "e1-f2"]
    );
    // One rook checks: the dropped knight is a piece in its way.
    assert_eq!(
        checked_names(rules("crazyhouse"), "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1"),
        ["N@b1", "N@c1", "N@d1", "e1-d2", "e1-e2", "e1-f2"]
    );
}

/// A drop bound by `drop-mate = "forbidden"` is answered unplayed only where it gives no check:
/// a piece dropped as the screen of the mover's own hopper gives check through it, so it is
/// played and the mate asked. The `hands.toml` test variant with a Cannon and a Block that may
/// not be dropped to mate: the Block on c1 or d1 screens the Cannon on e1 against the King on
/// a1, whose other cells the White King guards (mate, refused); on b1 the King takes it.
#[test]
fn a_bound_drop_that_screens_an_own_hopper_is_asked_for_mate() {
    let r = hands_with(
        "hands-cannon-mate.toml",
        "[pieces.cannon]\nletter = \"C\"\nmoves = \"hop(orthogonal) capture\"\nreserve = 0\n\
         [pieces.block]\nletter = \"B\"\nmoves = \"step(orthogonal)\"\nreserve = 0\n\
         drop-mate = \"forbidden\"\n",
    );
    let drops: Vec<String> = checked_names(&r, "5/5/1K3/5/k3C[B] w")
        .into_iter()
        .filter(|t| t.starts_with("B@"))
        .collect();
    assert_eq!(drops, ["B@b1"]);
}

/// Attacks asked through cell sets in a game with neutral pieces, captures that spare a kind
/// and directions by cell class: on a 5×5 board whose lower two ranks make the Lancer's `lane`
/// run along the rank and whose upper three make it run along the file, a neutral Stump in
/// the way of a ride shields the cells behind it, a Warden that may capture anything but a
/// King gives no check along its line, and the Lancer's lane bends where the classes meet.
/// Each list is compared with testing every turn by playing it (the interpreter's answer).
#[test]
fn attacks_in_cell_sets_read_neutral_pieces_spared_kinds_and_classed_directions() {
    let source = include_str!("variants/neutral-lanes.toml");
    let r = Ruleset::from_source("neutral-lanes.toml", source).unwrap();
    let b = r.bit_attacks().expect("a board of 25 cells without stones");
    assert!(r.bit_moves().is_none(), "neutral pieces: no movement sets");
    for k in ["king", "lancer", "warden"] {
        let kind = r.pieces.iter().position(|p| p.id == k).unwrap();
        assert!(b.answers_attacks(kind, Side::Black), "{k} in cell sets");
    }
    let king = |position: &str| -> Vec<String> {
        checked_names(&r, position)
            .into_iter()
            .filter(|t| t.starts_with("c2"))
            .collect()
    };
    // The Lancer on a1 runs along the first rank: b1, c1 and d1 are attacked. The Warden on
    // e2 may not take a King: d2 and b2 are safe on its rank.
    assert_eq!(
        king("k4/5/5/2K1w/l4 w"),
        ["c2-b2", "c2-b3", "c2-c3", "c2-d2", "c2-d3"]
    );
    // A Stump on c1 stops the Lancer there: d1 is safe, c1 (taking the Stump) is not.
    assert_eq!(
        king("k4/5/5/2K1w/l1*2 w"),
        ["c2-b2", "c2-b3", "c2-c3", "c2-d1", "c2-d2", "c2-d3"]
    );
    // Black's directions mirror the rank: its Lancer on d5 runs down the d-file (a high
    // cell), reaches d2 (a low cell: the same direction now runs towards the e-file) and
    // bends onto e2. The King on c2 is not in check, but d3 and d2 are attacked.
    assert_eq!(
        king("k2l1/5/5/2K2/5 w"),
        ["c2-b1", "c2-b2", "c2-b3", "c2-c1", "c2-c3", "c2-d1"]
    );
    // A Stump on d3 stops the lane there: d2 is safe again, and taking the Stump (a neutral
    // piece is open to every side's captures) would stand on the lane.
    assert_eq!(
        king("k2l1/5/3*1/2K2/5 w"),
        [
            "c2-b1", "c2-b2", "c2-b3", "c2-c1", "c2-c3", "c2-d1", "c2-d2"
        ]
    );
    // Random play-outs from these positions: every list the same both ways.
    for start in [
        "k4/5/5/2K1w/l4 w",
        "k4/5/5/2K1w/l1*2 w",
        "k2l1/5/5/2K2/5 w",
        "k1w1l/1*3/5/1L1W1/2K1* w",
    ] {
        let pos = text::parse_position(&r, start).unwrap();
        let mut g = Game::new(&r, pos).unwrap();
        let mut rng = 7usize;
        for _ in 0..30 {
            let Some(turns) = same_turns(&mut g) else {
                break;
            };
            if turns.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            g.play(&turns[(rng >> 33) % turns.len()]);
        }
    }
}

/// B-15: a red-bordered stone is collected by the piece landing on it. Where the side already
/// has that kind in hand, the count of the stone actions after such a move is read without
/// playing it (the kinds in hand are unchanged; a piece placing two stones may pair two of
/// that kind). After a sample of White's turns in the crowded mid-game, Black's turns counted
/// are as many as listed, collecting moves among them; and with a red stone put in the way of
/// White's piece that places two stones, and one of each red kind in White's hand, likewise.
#[test]
fn b15_stones_collected_of_a_kind_in_hand_are_counted_as_listed() {
    use bulwark::core::StoneKindId;
    use bulwark::vm::StoneEffect;
    let r = rules("bollwerk178");
    let crowded = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/positions/crowded-midgame.txt"),
    )
    .unwrap();
    let start = text::parse_position(r, crowded.trim()).unwrap();
    // Per stones per turn of the mover, the collecting turns of a kind in hand.
    let collecting = |g: &Game<'_>, turns: &[Turn], tally: &mut [usize; 3]| {
        let pos = g.pos();
        for u in turns {
            if let StoneEffect::Collect(k) = u.dest()
                && pos.supplies[pos.side][k.index()] > 0
                && let Some((_, kind)) = pos.at(u.from()).as_piece()
            {
                tally[usize::from(r.pieces[kind.index()].stones_per_turn.min(2))] += 1;
            }
        }
    };
    let counted_as_listed = |g: &mut Game<'_>| {
        let turns = g.legal_turns().unwrap();
        assert_eq!(
            g.count_turns(),
            turns.len(),
            "{}: the count is not the length of the list",
            text::write_position(r, g.pos())
        );
        turns
    };
    let mut g = Game::new(r, start.clone()).unwrap();
    let white = g.legal_turns().unwrap();
    let mut tally = [0usize; 3];
    for t in white.iter().step_by(53) {
        g.play(t);
        let turns = counted_as_listed(&mut g);
        collecting(&g, &turns, &mut tally);
        g.undo();
    }
    assert!(
        tally[1] > 0,
        "collecting turns by stones per turn: {tally:?}"
    );
    // White's two-stone piece: a red stone on the first empty cell it moves to.
    let mut pos = start;
    let side = pos.side;
    let reds: Vec<usize> = (0..r.stones.len())
        .filter(|&k| r.stones[k].collectable)
        .collect();
    assert!(!reds.is_empty());
    for &k in &reds {
        pos.supplies[side][k] = 1;
    }
    let two = r.topo.cells().find(|&c| {
        matches!(pos.at(c).as_piece(), Some((s, kind)) if s == side && r.pieces[kind.index()].stones_per_turn == 2)
    });
    let two = two.expect("White has a piece that places two stones");
    let onto = Game::new(r, pos.clone())
        .unwrap()
        .legal_turns()
        .unwrap()
        .iter()
        .filter(|t| t.from() == two && t.captures().is_empty())
        .find_map(|t| t.to().filter(|&to| pos.at(to).is_empty()))
        .expect("it has a move onto an empty cell");
    pos.put(onto, Occupant::stone(StoneKindId::new(reds[0])));
    let mut g = Game::new(r, pos).unwrap();
    let turns = counted_as_listed(&mut g);
    let mut tally = [0usize; 3];
    collecting(&g, &turns, &mut tally);
    assert!(
        tally[2] > 0,
        "collecting turns by stones per turn: {tally:?}"
    );
}
