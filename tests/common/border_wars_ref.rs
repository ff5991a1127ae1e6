//! An independent Border Wars move counter for cross-checking the engine: the board is built
//! as geometry (segments between lattice points, X-1), crosspoint and crosscorner are found
//! from shared endpoints, and the rules are written from the rulings (X-10 … X-24), sharing no
//! code with the engine. Repetition and the clock are left out: the counts it checks are too
//! shallow for them.
#![allow(dead_code)]

use std::collections::HashMap;

/// A lattice point.
type Pt = (i32, i32);

/// A piece: owner (0 Blue, 1 Red, 2 neutral) and upper-case letter.
type Piece = (u8, char);

/// The board as geometry.
pub struct Board {
    /// Each segment's two endpoints, and its name.
    segs: Vec<(Pt, Pt, String)>,
    /// Segment index by name.
    by_name: HashMap<String, usize>,
}

const FILES: &[u8] = b"abcdefghi";

impl Board {
    pub fn new() -> Board {
        let mut segs = Vec::new();
        for y in 0..=4 {
            for x in 0..4 {
                segs.push(((x, y), (x + 1, y)));
            }
        }
        for x in 0..=4 {
            for y in 0..4 {
                segs.push(((x, y), (x, y + 1)));
            }
        }
        segs.push(((2, -1), (2, 0)));
        segs.push(((2, 4), (2, 5)));
        let segs: Vec<(Pt, Pt, String)> = segs
            .into_iter()
            .map(|(a, b)| {
                // The midpoint (mx, my) names it: file 2·mx, rank 2·my + 2.
                let (fx2, my2) = (a.0 + b.0, a.1 + b.1);
                let file = FILES[fx2 as usize] as char;
                let rank = my2 + 2;
                (a, b, format!("{file}{rank}"))
            })
            .collect();
        let by_name = segs
            .iter()
            .enumerate()
            .map(|(i, s)| (s.2.clone(), i))
            .collect();
        Board { segs, by_name }
    }

    pub fn len(&self) -> usize {
        self.segs.len()
    }

    fn horizontal(&self, i: usize) -> bool {
        self.segs[i].0.1 == self.segs[i].1.1
    }

    /// Segments sharing an endpoint with `i`: (collinear ones, perpendicular ones).
    fn touching(&self, i: usize) -> (Vec<usize>, Vec<usize>) {
        let (a, b, _) = &self.segs[i];
        let mut along = Vec::new();
        let mut corner = Vec::new();
        for (j, (c, d, _)) in self.segs.iter().enumerate() {
            if j == i || !(c == a || c == b || d == a || d == b) {
                continue;
            }
            if self.horizontal(i) == self.horizontal(j) {
                along.push(j);
            } else {
                corner.push(j);
            }
        }
        (along, corner)
    }

    /// The segment reached from `i` by moving its midpoint by (dx, dy) halves.
    fn shifted(&self, i: usize, d: (i32, i32)) -> Option<usize> {
        let (a, b, _) = &self.segs[i];
        let (mx2, my2) = (a.0 + b.0 + d.0, a.1 + b.1 + d.1);
        self.segs
            .iter()
            .position(|(c, e, _)| c.0 + e.0 == mx2 && c.1 + e.1 == my2)
    }
}

/// A position.
#[derive(Clone)]
pub struct Pos {
    pub cells: Vec<Option<Piece>>,
    /// Hands: [side][B, D, U, P].
    pub hand: [[u32; 4]; 2],
    pub blue: bool,
}

/// Which sub-variant.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Full,
    Chess,
    Shogi,
    Xiangqi,
}

const HAND: &str = "BDUP";

fn value(c: char) -> u32 {
    match c {
        'G' => 5,
        'D' | 'B' | 'C' => 3,
        'U' => 2,
        _ => 1,
    }
}

pub struct Ref {
    pub board: Board,
    pub kind: Kind,
}

impl Ref {
    pub fn new(kind: Kind) -> Ref {
        Ref {
            board: Board::new(),
            kind,
        }
    }

    /// Reads `BOARD[HAND] SIDE …` (ranks 11 down; cells of a rank by file).
    pub fn parse(&self, fen: &str) -> Pos {
        let mut parts = fen.split_whitespace();
        let b = parts.next().unwrap();
        let (board, hand) = match b.find('[') {
            Some(i) => (&b[..i], &b[i + 1..b.len() - 1]),
            None => (b, ""),
        };
        let mut cells = vec![None; self.board.len()];
        for (i, row) in board.split('/').enumerate() {
            let rank = 11 - i as i32;
            let mut names: Vec<(usize, &String)> = self
                .board
                .segs
                .iter()
                .enumerate()
                .filter(|(_, s)| s.2[1..].parse::<i32>().unwrap() == rank)
                .map(|(j, s)| (j, &s.2))
                .collect();
            names.sort_by_key(|(_, n)| n.as_bytes()[0]);
            let mut k = 0;
            let mut digits = String::new();
            for ch in row.chars().chain(std::iter::once('.')) {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    k += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                if ch == '.' {
                    break;
                }
                let owner = if ch == '*' {
                    2
                } else {
                    u8::from(!ch.is_ascii_uppercase())
                };
                let letter = if ch == '*' {
                    'P'
                } else {
                    ch.to_ascii_uppercase()
                };
                cells[names[k].0] = Some((owner, letter));
                k += 1;
            }
            assert_eq!(k, names.len(), "rank {rank}");
        }
        let mut h = [[0u32; 4]; 2];
        for ch in hand.chars() {
            let s = usize::from(!ch.is_ascii_uppercase());
            h[s][HAND.find(ch.to_ascii_uppercase()).unwrap()] += 1;
        }
        Pos {
            cells,
            hand: h,
            blue: parts.next() != Some("b"),
        }
    }

    fn passive(&self, letter: char) -> bool {
        match self.kind {
            Kind::Full => matches!(letter, 'G' | 'D'),
            Kind::Shogi => true,
            Kind::Chess | Kind::Xiangqi => false,
        }
    }

    /// Targets of a piece of `letter` owned by `me` on `i`: (cell, captures).
    fn moves(&self, p: &Pos, i: usize, me: u8, letter: char, out: &mut Vec<(usize, bool)>) {
        let b = &self.board;
        let (along, corner) = b.touching(i);
        let can_take = |q: Piece, letter: char| -> bool {
            q.0 != me && (q.1 != 'B' || matches!(letter, 'G' | 'D')) && letter != 'B'
        };
        let land = |j: usize, out: &mut Vec<(usize, bool)>, take: bool| match p.cells[j] {
            None => out.push((j, false)),
            Some(q) if take && can_take(q, letter) => out.push((j, true)),
            _ => {}
        };
        let ride = |d: (i32, i32), out: &mut Vec<(usize, bool)>, take: bool| {
            let mut j = i;
            while let Some(n) = b.shifted(j, d) {
                match p.cells[n] {
                    None => out.push((n, false)),
                    Some(q) => {
                        if take && can_take(q, letter) {
                            out.push((n, true));
                        }
                        break;
                    }
                }
                j = n;
            }
        };
        let hop = |d: (i32, i32), out: &mut Vec<(usize, bool)>| {
            let mut j = i;
            let mut screen = false;
            while let Some(n) = b.shifted(j, d) {
                if let Some(q) = p.cells[n] {
                    if screen {
                        if q.0 != me {
                            out.push((n, true));
                        }
                        break;
                    }
                    screen = true;
                }
                j = n;
            }
        };
        // The crosspoint directions of this segment: along its own axis, two halves a step.
        let axis: [(i32, i32); 2] = if b.horizontal(i) {
            [(2, 0), (-2, 0)]
        } else {
            [(0, 2), (0, -2)]
        };
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match letter {
            'G' | 'P' => {
                for j in along.iter().chain(corner.iter()) {
                    land(*j, out, true);
                }
            }
            'D' => {
                for j in &along {
                    land(*j, out, true);
                }
                for d in diag {
                    ride(d, out, true);
                }
            }
            'U' => {
                for d in axis {
                    ride(d, out, true);
                }
                for j in &corner {
                    land(*j, out, true);
                }
            }
            'B' | 'C' => {
                for d in axis {
                    ride(d, out, false);
                }
                for d in diag {
                    ride(d, out, false);
                }
                if letter == 'C' {
                    for d in axis.iter().chain(diag.iter()) {
                        hop(*d, out);
                    }
                }
            }
            _ => panic!("{letter}"),
        }
    }

    fn general(p: &Pos, side: u8) -> Option<usize> {
        p.cells.iter().position(|c| *c == Some((side, 'G')))
    }

    fn attacked(&self, p: &Pos, at: usize, by: u8) -> bool {
        let mut v = Vec::new();
        for (i, c) in p.cells.iter().enumerate() {
            if let Some((s, l)) = *c
                && s == by
            {
                v.clear();
                self.moves(p, i, s, l, &mut v);
                if v.iter().any(|&(j, t)| j == at && t) {
                    return true;
                }
            }
        }
        false
    }

    fn road(&self, side: u8) -> usize {
        self.board.by_name[if side == 0 { "e1" } else { "e11" }]
    }

    /// Whether the game is over before any turn.
    fn over(&self, p: &Pos) -> bool {
        for side in 0..2u8 {
            let Some(_) = Self::general(p, side) else {
                return true;
            };
            if p.cells[self.road(1 - side)] == Some((side, 'G')) {
                return true;
            }
        }
        if self.kind == Kind::Full {
            for side in 0..2u8 {
                let hand_empty = p.hand[side as usize].iter().all(|&n| n == 0);
                let diplomats = p.cells.contains(&Some((side, 'D')));
                let points: u32 = p
                    .cells
                    .iter()
                    .flatten()
                    .filter(|c| c.0 == side)
                    .map(|c| value(c.1))
                    .sum();
                let neutrals = p.cells.iter().flatten().any(|c| c.0 == 2);
                if hand_empty && !diplomats && points < 10 && !neutrals {
                    return true;
                }
            }
        }
        false
    }

    /// Every legal successor.
    pub fn children(&self, p: &Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        if self.over(p) {
            return out;
        }
        let me: u8 = u8::from(!p.blue);
        let mut cands: Vec<Pos> = Vec::new();
        let mut v = Vec::new();
        for i in 0..p.cells.len() {
            let Some((owner, letter)) = p.cells[i] else {
                continue;
            };
            let mut allow_take = true;
            if owner == 2 {
                // Influence: values of each side's pieces one crosspoint or crosscorner step.
                let (a, c) = self.board.touching(i);
                let (mut mine, mut theirs) = (0, 0);
                for j in a.iter().chain(c.iter()) {
                    if let Some((s, l)) = p.cells[*j] {
                        if s == me {
                            mine += value(l);
                        } else if s == 1 - me {
                            theirs += value(l);
                        }
                    }
                }
                if mine == 0 || mine < theirs {
                    continue;
                }
                allow_take = mine > theirs;
            } else if owner != me {
                continue;
            }
            v.clear();
            self.moves(p, i, me, letter, &mut v);
            for &(j, take) in &v {
                if take && !allow_take {
                    continue;
                }
                let mut n = p.clone();
                if take {
                    let (vo, vl) = n.cells[j].unwrap();
                    if owner != 2 && vo != 2 && self.passive(letter) && vl != 'G' {
                        n.hand[me as usize][HAND.find(vl).unwrap()] += 1;
                    }
                }
                n.cells[j] = n.cells[i];
                n.cells[i] = None;
                if owner == me && letter == 'D' && self.kind == Kind::Full && j == self.road(1 - me)
                {
                    for k in 0..4 {
                        n.hand[me as usize][k] += n.hand[1 - me as usize][k];
                        n.hand[1 - me as usize][k] = 0;
                    }
                }
                cands.push(n);
            }
        }
        // Drops on the own empty road.
        if matches!(self.kind, Kind::Full | Kind::Shogi) {
            let road = self.road(me);
            if p.cells[road].is_none() {
                for k in 0..4 {
                    if p.hand[me as usize][k] > 0 {
                        let mut n = p.clone();
                        n.hand[me as usize][k] -= 1;
                        n.cells[road] = Some((me, HAND.as_bytes()[k] as char));
                        cands.push(n);
                    }
                }
            }
        }
        for mut n in cands {
            n.blue = !p.blue;
            let safe = match Self::general(&n, me) {
                Some(g) => !self.attacked(&n, g, 1 - me),
                None => false,
            };
            if safe {
                out.push(n);
            }
        }
        out
    }

    pub fn perft(&self, p: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let c = self.children(p);
        if depth == 1 {
            return c.len() as u64;
        }
        c.iter().map(|n| self.perft(n, depth - 1)).sum()
    }
}
