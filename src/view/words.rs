//! The rules of a variant in words, generated from the file: the board, the turn, the stones
//! and their effects, the special moves and the end of the game. For the players' rulebook.

use crate::core::Side;
use crate::rules::{EndVerdict, Replaced, Ruleset, Trigger, Verdict, Whose};

fn whose(w: Whose) -> &'static str {
    match w {
        Whose::Own => "its own",
        Whose::Enemy => "the opponent's",
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Loses => "loses",
        Verdict::Wins => "wins",
        Verdict::Draw => "draws",
    }
}

fn join_with(items: &[String], last: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {last} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

fn join(items: &[String]) -> String {
    join_with(items, "and")
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// Sentences for the `[turn]` settings that differ from their defaults (empty for none).
fn turn_settings(t: &crate::rules::TurnRules) -> String {
    let mut s = String::new();
    let sh = t.shapes;
    if sh != crate::rules::Shapes::default() {
        let kinds: Vec<&str> = [
            (sh.moves, "moving"),
            (sh.move_then_stone, "moving then placing stones"),
            (sh.stone_only, "placing stones without moving"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, k)| k)
        .collect();
        s.push_str(&format!(
            " Unless a piece says otherwise, the only kinds of turn are: {}.",
            kinds.join("; ")
        ));
    }
    if t.stone_after_move_compulsory {
        s.push_str(" A piece that moves must then place a stone when it can.");
    }
    if t.capture_compulsory {
        s.push_str(" When a turn can capture, the turn must capture.");
    }
    if t.most_captures {
        s.push_str(" Of the turns that capture, only those taking the most pieces may be played.");
    }
    if t.captured_leave_at_end {
        s.push_str(
            " Pieces taken during a chain stay on their cells until the turn ends: they stay in \
             the way and cannot be taken twice.",
        );
    }
    match (t.revisit_after_capture, t.home_after_capture) {
        (true, false) => s.push_str(
            " A chain may pass a cell again once it has taken a piece since it was there, but \
             never comes back to where it started.",
        ),
        (true, true) => s.push_str(
            " A chain may pass a cell again once it has taken a piece since it was there, and \
             may end where it started.",
        ),
        (false, true) => s.push_str(
            " A chain that has taken a piece may come back to where it started and end there.",
        ),
        (false, false) => {}
    }
    if t.pass {
        s.push_str(
            " A side may pass instead of moving, but not when that leaves its royal piece \
             attacked.",
        );
    }
    s
}

/// Paragraphs (plain text) describing the variant's rules, in the order a player reads them.
pub fn rules_in_words(rules: &Ruleset) -> Vec<(String, String)> {
    let mut out = Vec::new();
    board_words(rules, &mut out);
    turn_words(rules, &mut out);
    stone_words(rules, &mut out);
    let mut special = Vec::new();
    castling_words(rules, &mut special);
    en_passant_words(rules, &mut special);
    change_words(rules, &mut special);
    reserve_words(rules, &mut special);
    blast_words(rules, &mut special);
    if !special.is_empty() {
        out.push(("Special moves".into(), format!("{}.", special.join(". "))));
    }
    let mut end = Vec::new();
    goal_words(rules, &mut end);
    lost_pieces_words(rules, &mut end);
    ending_words(rules, &mut end);
    let mut text = join(&end);
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    out.push(("The end of the game".into(), format!("{text}.")));
    out
}

/// The board: its cells, files and ranks, who moves first, the named regions.
fn board_words(rules: &Ruleset, out: &mut Vec<(String, String)>) {
    let t = &rules.topo;
    let labels: Vec<&str> = (0..t.files()).map(|f| t.file_label(f)).collect();
    out.push((
        "The board".into(),
        format!(
            "{} cells on {} files ({}) and {} ranks. {} moves first; pieces of the first side \
             are written in upper case, the second's in lower case.{}",
            t.len(),
            t.files(),
            labels.join(" "),
            t.ranks(),
            capitalised(rules.side_name(Side::White)),
            if rules.regions.is_empty() {
                String::new()
            } else {
                format!(
                    " Named regions (each side has its own): {}.",
                    rules
                        .regions
                        .iter()
                        .map(|r| r.id.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ),
    ));
}

/// What a turn is: a move, stones placed or removed, in which order.
fn turn_words(rules: &Ruleset, out: &mut Vec<(String, String)>) {
    let placers: Vec<String> = rules
        .pieces
        .iter()
        .filter(|p| p.stones_per_turn > 0)
        .map(|p| {
            if p.stones_per_turn == 1 {
                p.name.clone()
            } else {
                format!(
                    "{} (up to {} on different cells)",
                    p.name, p.stones_per_turn
                )
            }
        })
        .collect();
    let removers: Vec<String> = rules
        .pieces
        .iter()
        .filter(|p| !p.removes.is_empty())
        .map(|p| p.name.clone())
        .collect();
    let mut turn = String::from("A turn moves one piece");
    if !rules.stones.is_empty() && !placers.is_empty() {
        turn.push_str(&format!(
            "; or moves it and then places stones with it from its new cell; or places stones \
             with a piece that stays. Pieces that place stones: {}. A piece places a stone only \
             within its range, on an empty cell or on what a stone acts on",
            join(&placers)
        ));
        if !removers.is_empty() {
            turn.push_str(&format!(
                ". Instead of placing, {} may remove a stone",
                join(&removers)
            ));
        }
        turn.push_str(&format!(
            ". A turn blows up at most {} stone{}{}",
            rules.turn.explosions,
            if rules.turn.explosions == 1 { "" } else { "s" },
            if rules.turn.taboo_after_explosion {
                "; a cell an explosion empties takes no stone in the opponent's next turn"
            } else {
                ""
            }
        ));
    }
    turn.push_str(if rules.turn.pass {
        "."
    } else {
        ". Passing is not a turn."
    });
    turn.push_str(&turn_settings(&rules.turn));
    if rules.end.two_passes_draw {
        turn.push_str(" A pass answered by a pass draws.");
    }
    if rules.end.facing.is_some() {
        turn.push_str(
            " While the royal pieces face each other with nothing between them, the side to \
             move must part them or pass (even in check), and that pass draws.",
        );
    }
    out.push(("The turn".into(), turn));
}

/// The stones, their supplies and where they may go.
fn stone_words(rules: &Ruleset, out: &mut Vec<(String, String)>) {
    if !rules.stones.is_empty() {
        let mut items = Vec::new();
        for s in &rules.stones {
            let mut d = format!(
                "{} `{}`: {} a side at the start, {}",
                capitalised(&s.name),
                s.symbol,
                s.supply,
                s.class
            );
            if s.collectable {
                d.push_str("; a piece landing on it collects it into its side's supply");
            }
            if !s.explodes.is_empty() {
                let names: Vec<String> = s
                    .explodes
                    .iter()
                    .map(|&k| rules.stones[k].name.clone())
                    .collect();
                d.push_str(&format!(
                    "; placed on {}, it blows it up and both leave the game",
                    join_with(&names, "or")
                ));
            }
            if !s.captures.is_empty() {
                let names: Vec<String> = s
                    .captures
                    .iter()
                    .map(|&k| rules.pieces[k].name.clone())
                    .collect();
                d.push_str(&format!(
                    "; placed on an enemy {}, it captures it and stays",
                    join_with(&names, "or")
                ));
                if !s.captures_not_by.is_empty() {
                    let by: Vec<String> = s
                        .captures_not_by
                        .iter()
                        .map(|&k| rules.pieces[k].name.clone())
                        .collect();
                    d.push_str(&format!(" (not when {} places it)", join(&by)));
                }
            }
            if let Some((w, r)) = s.wins_on {
                d.push_str(&format!(
                    "; placed on {} {}, it wins",
                    whose(w),
                    rules.regions[r.index()].id
                ));
            }
            items.push(d);
        }
        let mut where_ = Vec::new();
        for &(w, r) in &rules.placement.forbidden {
            where_.push(format!(
                "never in a side's {} {}",
                if w == Whose::Own { "own" } else { "opponent's" },
                rules.regions[r.index()].id
            ));
        }
        for (w, r, kinds) in &rules.placement.only {
            let names: Vec<String> = kinds
                .iter()
                .map(|&k| rules.stones[k].name.clone())
                .collect();
            where_.push(format!(
                "in {} {} only {}",
                whose(*w),
                rules.regions[r.index()].id,
                join_with(&names, "or")
            ));
        }
        let mut text = format!("{}.", items.join(". "));
        if !where_.is_empty() {
            text.push_str(&format!(" Where stones may go: {}.", where_.join("; ")));
        }
        out.push(("Stones and supplies".into(), text));
    }
}

/// Castling's sentences.
fn castling_words(rules: &Ruleset, special: &mut Vec<String>) {
    let t = &rules.topo;
    if !rules.castlings.is_empty() {
        let list: Vec<String> = rules
            .castlings
            .iter()
            .map(|c| {
                let partners: Vec<String> = c
                    .partners
                    .iter()
                    .map(|&(a, b)| format!("{}–{}", t.name(a), t.name(b)))
                    .collect();
                format!(
                    "{}: king {}–{} with {}",
                    c.letter,
                    t.name(c.king.0),
                    t.name(c.king.1),
                    join_with(&partners, "and")
                )
            })
            .collect();
        special.push(format!(
            "Castling, while its right lasts and the cells between are empty and not attacked: {}",
            list.join("; ")
        ));
    }
}

/// En passant's sentences.
fn en_passant_words(rules: &Ruleset, special: &mut Vec<String>) {
    let ep: Vec<String> = rules
        .pieces
        .iter()
        .filter(|p| p.en_passant)
        .map(|p| p.name.clone())
        .collect();
    if !ep.is_empty() {
        special.push(format!(
            "A {} that moves two cells may be taken en passant on the cell it passed",
            join_with(&ep, "or")
        ));
        let any: Vec<String> = rules
            .pieces
            .iter()
            .filter(|p| p.en_passant && p.en_passant_any_line)
            .map(|p| p.name.clone())
            .collect();
        if !any.is_empty() {
            special.push(format!(
                "For a {}, that is two cells along any straight line, diagonals included{}",
                join_with(&any, "or"),
                if any.len() < ep.len() {
                    "; for the others only along their file"
                } else {
                    ""
                }
            ));
        }
    }
}

/// The changes of kind.
fn change_words(rules: &Ruleset, special: &mut Vec<String>) {
    for p in &rules.pieces {
        for ch in &p.changes {
            let names: Vec<String> = ch
                .to
                .iter()
                .map(|&k| {
                    let to = &rules.pieces[k];
                    match to.reserve {
                        Some(_) => format!("{} (from the reserve, if it has one)", to.name),
                        None => to.name.clone(),
                    }
                })
                .collect();
            let when = match &ch.on {
                Trigger::Reach { region, enter } => format!(
                    "{} its {}",
                    if *enter {
                        "entering"
                    } else {
                        "ending a move in"
                    },
                    rules.regions[region.index()].id
                ),
                Trigger::Zone(region) => format!(
                    "moving into, within or out of its {}",
                    rules.regions[region.index()].id
                ),
                Trigger::Capture(kinds) if kinds.is_empty() => "capturing".into(),
                Trigger::Capture(kinds) => {
                    let k: Vec<String> = kinds
                        .iter()
                        .map(|&k| rules.pieces[k].name.clone())
                        .collect();
                    format!("capturing a {}", join_with(&k, "or"))
                }
                Trigger::Check => "giving check by its move".into(),
            };
            special.push(format!(
                "A {} {when} {} a {}",
                p.name,
                if ch.optional { "may become" } else { "becomes" },
                join_with(&names, "or")
            ));
        }
    }
}

/// The reserves off the board.
fn reserve_words(rules: &Ruleset, special: &mut Vec<String>) {
    let reserve: Vec<String> = rules
        .pieces
        .iter()
        .filter_map(|p| p.reserve.map(|n| format!("{n} {}", p.name)))
        .collect();
    if !reserve.is_empty() {
        special.push(format!(
            "Each side starts with a reserve off the board: {}; a replaced piece {}",
            join(&reserve),
            match rules.replaced {
                Replaced::Out => "leaves the game",
                Replaced::Reserve => "goes back to the reserve",
            }
        ));
    }
}

/// Exploding captures (`[blast]`).
fn blast_words(rules: &Ruleset, special: &mut Vec<String>) {
    let Some(b) = &rules.blast else { return };
    let immune: Vec<String> = b
        .immune
        .iter()
        .map(|&k| rules.pieces[k.index()].name.clone())
        .collect();
    special.push(format!(
        "Every capture explodes: the capturing piece leaves the board with the piece it takes, \
         and so does every piece next to the capture, of either side{}. A royal piece therefore \
         never captures, a turn that blows up one's own royal piece is not allowed, one that \
         blows up the enemy's wins, and royal pieces side by side cannot be checked",
        if immune.is_empty() {
            String::new()
        } else {
            format!(
                " but a {} (unless it captures or is captured)",
                join_with(&immune, "or")
            )
        }
    ));
}

/// The endings by pieces lost: extinction of a kind, the bare royal piece, the goal's answer,
/// the side without a royal piece.
fn lost_pieces_words(rules: &Ruleset, end: &mut Vec<String>) {
    if !rules.end.extinction.is_empty() {
        let names: Vec<String> = rules
            .end
            .extinction
            .iter()
            .map(|&k| rules.pieces[k.index()].name.clone())
            .collect();
        end.push(format!(
            "a side left without any {} (on the board or in reserve) loses",
            join_with(&names, "or")
        ));
    }
    match rules.end.bare {
        crate::rules::Bare::Ignored => {}
        crate::rules::Bare::Loses => end.push(
            "a side left with nothing but its royal piece loses, and two bare royal pieces draw"
                .into(),
        ),
        crate::rules::Bare::Answered => end.push(
            "a side left with nothing but its royal piece loses, but when the opponent has a \
             single other piece it first plays one more turn, and baring the opponent with it \
             draws"
                .into(),
        ),
    }
    if rules.end.goal_answer {
        end.push(format!(
            "when {} reaches a goal, {} plays one more turn, and reaching a goal with it draws",
            rules.side_name(Side::White),
            rules.side_name(Side::Black)
        ));
    }
    for side in Side::BOTH {
        if rules.without_royal[side] {
            end.push(format!(
                "{} plays without a royal piece and is never in check",
                rules.side_name(side)
            ));
        }
    }
    if rules.turn.no_giving_check {
        end.push("no turn may attack the enemy's royal piece".into());
    }
}

/// The goals and the vanquished rule.
fn goal_words(rules: &Ruleset, end: &mut Vec<String>) {
    for goal in &rules.end.goals {
        let (w, r) = goal.region;
        let who = if goal.by.is_empty() {
            "a piece".to_string()
        } else {
            let names: Vec<String> = goal
                .by
                .iter()
                .map(|&k| rules.pieces[k].name.clone())
                .collect();
            format!("its {}", join_with(&names, "or"))
        };
        end.push(format!(
            "a side with {who} on {} {} after its turn {}",
            whose(w),
            rules.regions[r.index()].id,
            match goal.verdict {
                Verdict::Wins => "wins",
                Verdict::Loses => "loses",
                Verdict::Draw => "draws the game",
            }
        ));
    }
    if let Some(v) = &rules.end.vanquished {
        let mut conds = Vec::new();
        if v.no_reserve {
            conds.push("no reserve".to_string());
        }
        if !v.none_of.is_empty() {
            let names: Vec<String> = v
                .none_of
                .iter()
                .map(|&k| rules.pieces[k].name.clone())
                .collect();
            conds.push(format!("no {}", join_with(&names, "or")));
        }
        if let Some(p) = v.points_below {
            conds.push(format!("pieces worth less than {p} points on the board"));
        }
        if v.no_neutrals {
            conds.push("no neutral piece left".to_string());
        }
        end.push(format!(
            "a side with {} is vanquished and loses",
            join(&conds)
        ));
    }
}

/// The other endings: no pieces, immobility, checkmate and stalemate, repetition and the clock.
fn ending_words(rules: &Ruleset, end: &mut Vec<String>) {
    if let Some(n) = rules.end.checks {
        end.push(match n {
            1 => "a side that gives check wins".to_string(),
            n => {
                format!("a side that has given check {n} times wins, however each check was given")
            }
        });
    }
    if rules.end.no_pieces_loses {
        end.push("a side without pieces loses".into());
    }
    if rules.end.immobilized_loses {
        end.push("a side that starts its turn unable to move a piece loses".into());
    }
    if rules.has_royals() {
        let royals: Vec<String> = rules
            .pieces
            .iter()
            .filter(|p| p.royal)
            .map(|p| p.name.clone())
            .collect();
        end.push(format!(
            "no turn may leave one's {} attacked; a side checkmated {}, a side stalemated {}",
            join(&royals),
            verdict(rules.end.checkmate),
            verdict(rules.end.stalemate)
        ));
    }
    if !rules.has_royals() {
        end.push("a side with no legal turn loses".into());
    }
    let history_verdict = |v: EndVerdict| match v {
        EndVerdict::Illegal => "is not allowed",
        EndVerdict::Draw => "draws the game",
        EndVerdict::MoverLoses => "loses the game",
    };
    if let Some(r) = rules.repetition {
        end.push(if r.occurrence == 2 {
            format!(
                "a turn that repeats an earlier position {}",
                history_verdict(r.verdict)
            )
        } else {
            let nth = match r.occurrence {
                3 => "third".to_string(),
                4 => "fourth".to_string(),
                n => format!("{n}th"),
            };
            format!(
                "a turn that makes a position occur for the {nth} time {}",
                history_verdict(r.verdict)
            )
        });
    }
    if let Some((n, v)) = rules.clock.limit {
        let mut resets = Vec::new();
        if rules.clock.reset_on_capture {
            resets.push("capture".to_string());
        }
        if rules.clock.reset_on_change {
            resets.push("change of kind".to_string());
        }
        for &k in &rules.clock.reset_by {
            resets.push(format!("{}'s move", rules.pieces[k].name));
        }
        end.push(format!(
            "the turn that makes it {n} turns since the last {} {}",
            join_with(&resets, "or"),
            history_verdict(v)
        ));
    }
}
