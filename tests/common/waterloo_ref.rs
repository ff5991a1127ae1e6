//! An independent Waterloo move counter for cross-checking the engine: written from the
//! rulings (W-1 … W-22) as plain geometry on a 10×10 array, sharing no code with the engine
//! (its own position reader, move rules and check test). Repetition and the clock are left
//! out: the counts it is used for are too shallow to reach either.
#![allow(dead_code)]

/// A piece: side (true = White) and upper-case letter.
type Piece = (bool, char);

const FILES: &str = "abcdefghik";

/// A Waterloo position.
#[derive(Clone, PartialEq)]
pub struct Ref {
    board: [[Option<Piece>; 10]; 10], // [file][rank]
    white: bool,
    /// Reserve counts: [side][S, J, W] (side 0 = White).
    reserve: [[u32; 3]; 2],
    /// Castling rights K Q k q.
    rights: [bool; 4],
    ep: Option<(i32, i32)>,
}

/// The castlings: side, king from/to, partners (from, to), empty cells, safe cells.
struct Castle {
    white: bool,
    king: ((i32, i32), (i32, i32)),
    partners: [((i32, i32), (i32, i32)); 2],
    empty: &'static [(i32, i32)],
    safe: &'static [(i32, i32)],
}

const CASTLES: [Castle; 4] = [
    Castle {
        white: true,
        king: ((4, 0), (1, 0)),
        partners: [((1, 0), (3, 0)), ((0, 0), (2, 0))],
        empty: &[(2, 0), (3, 0)],
        safe: &[(4, 0), (3, 0), (2, 0), (1, 0)],
    },
    Castle {
        white: true,
        king: ((4, 0), (7, 0)),
        partners: [((8, 0), (5, 0)), ((9, 0), (6, 0))],
        empty: &[(5, 0), (6, 0), (7, 0)],
        safe: &[(4, 0), (5, 0), (6, 0), (7, 0)],
    },
    Castle {
        white: false,
        king: ((4, 9), (8, 9)),
        partners: [((8, 9), (6, 9)), ((9, 9), (7, 9))],
        empty: &[(5, 9), (6, 9), (7, 9)],
        safe: &[(4, 9), (5, 9), (6, 9), (7, 9), (8, 9)],
    },
    Castle {
        white: false,
        king: ((4, 9), (2, 9)),
        partners: [((1, 9), (4, 9)), ((0, 9), (3, 9))],
        empty: &[(2, 9), (3, 9)],
        safe: &[(4, 9), (3, 9), (2, 9)],
    },
];

const KING8: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const TWO: [(i32, i32); 8] = [
    (2, 0),
    (-2, 0),
    (0, 2),
    (0, -2),
    (2, 2),
    (2, -2),
    (-2, 2),
    (-2, -2),
];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

fn on(c: (i32, i32)) -> bool {
    (0..10).contains(&c.0) && (0..10).contains(&c.1)
}

/// A movement: from, to, captured cell (if any), and whether it came from a castling.
#[derive(Clone, Copy)]
struct Mv {
    from: (i32, i32),
    to: (i32, i32),
    capture: Option<(i32, i32)>,
    castle: Option<usize>,
    double: bool,
}

impl Ref {
    /// Reads `BOARD[RESERVE] SIDE CASTLING EP …`.
    pub fn parse(fen: &str) -> Ref {
        let mut parts = fen.split_whitespace();
        let board_res = parts.next().unwrap();
        let (board, res) = match board_res.find('[') {
            Some(i) => (&board_res[..i], &board_res[i + 1..board_res.len() - 1]),
            None => (board_res, "SSJJWWssjjww"),
        };
        let mut r = Ref {
            board: [[None; 10]; 10],
            white: true,
            reserve: [[0; 3]; 2],
            rights: [false; 4],
            ep: None,
        };
        for (i, row) in board.split('/').enumerate() {
            let rank = 9 - i as i32;
            let mut f = 0;
            let mut digits = String::new();
            for ch in row.chars().chain(std::iter::once('.')) {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    f += digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                if ch == '.' {
                    break;
                }
                r.board[f as usize][rank as usize] =
                    Some((ch.is_ascii_uppercase(), ch.to_ascii_uppercase()));
                f += 1;
            }
            assert_eq!(f, 10, "rank {}", rank + 1);
        }
        for ch in res.chars() {
            let s = usize::from(!ch.is_ascii_uppercase());
            let k = "SJW".find(ch.to_ascii_uppercase()).unwrap();
            r.reserve[s][k] += 1;
        }
        r.white = parts.next() != Some("b");
        if let Some(c) = parts.next() {
            for ch in c.chars() {
                if let Some(i) = "KQkq".find(ch) {
                    r.rights[i] = true;
                }
            }
        }
        if let Some(e) = parts.next().filter(|e| *e != "-") {
            let f = FILES.find(&e[..1]).unwrap() as i32;
            let rank: i32 = e[1..].parse().unwrap();
            r.ep = Some((f, rank - 1));
        }
        r
    }

    fn at(&self, c: (i32, i32)) -> Option<Piece> {
        self.board[c.0 as usize][c.1 as usize]
    }

    fn set(&mut self, c: (i32, i32), p: Option<Piece>) {
        self.board[c.0 as usize][c.1 as usize] = p;
    }

    fn side(w: bool) -> usize {
        usize::from(!w)
    }

    /// A side's own row `n` (1-based, as the rulings count rows).
    fn row(w: bool, n: i32) -> i32 {
        if w { n - 1 } else { 10 - n }
    }

    /// A movement from `c` to `to` if it is on the board and empty (when `quiet_ok`) or holds
    /// an enemy (when `cap_ok`).
    fn land(&self, c: (i32, i32), to: (i32, i32), quiet_ok: bool, cap_ok: bool, out: &mut Vec<Mv>) {
        if !on(to) {
            return;
        }
        let w = self.at(c).unwrap().0;
        let capture = match self.at(to) {
            None if quiet_ok => None,
            Some((s, _)) if s != w && cap_ok => Some(to),
            _ => return,
        };
        out.push(Mv {
            from: c,
            to,
            capture,
            castle: None,
            double: false,
        });
    }

    /// Leaps from `c` by each offset, moving or capturing.
    fn leaps(&self, c: (i32, i32), offs: &[(i32, i32)], out: &mut Vec<Mv>) {
        for &(dx, dy) in offs {
            self.land(c, (c.0 + dx, c.1 + dy), true, true, out);
        }
    }

    /// The movements of the piece on `c` (ignoring castling, changes, legality).
    fn piece_moves(&self, c: (i32, i32), out: &mut Vec<Mv>) {
        const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let (w, k) = self.at(c).unwrap();
        let fw = if w { 1 } else { -1 };
        let slide = |dirs: &[(i32, i32)], this: &Ref, out: &mut Vec<Mv>| {
            for &(dx, dy) in dirs {
                let mut t = (c.0 + dx, c.1 + dy);
                while on(t) {
                    match this.at(t) {
                        None => out.push(Mv {
                            from: c,
                            to: t,
                            capture: None,
                            castle: None,
                            double: false,
                        }),
                        Some((s, _)) => {
                            if s != w {
                                out.push(Mv {
                                    from: c,
                                    to: t,
                                    capture: Some(t),
                                    castle: None,
                                    double: false,
                                });
                            }
                            break;
                        }
                    }
                    t = (t.0 + dx, t.1 + dy);
                }
            }
        };
        match k {
            'P' => {
                let one = (c.0, c.1 + fw);
                self.land(c, one, true, false, out);
                let two = (c.0, c.1 + 2 * fw);
                if c.1 == Ref::row(w, 3)
                    && self.at(one).is_none()
                    && on(two)
                    && self.at(two).is_none()
                {
                    out.push(Mv {
                        from: c,
                        to: two,
                        capture: None,
                        castle: None,
                        double: true,
                    });
                }
                for dx in [-1, 1] {
                    let t = (c.0 + dx, c.1 + fw);
                    self.land(c, t, false, true, out);
                    if on(t) && self.ep == Some(t) && self.at(t).is_none() {
                        let victim = (t.0, c.1);
                        if matches!(self.at(victim), Some((s, 'P')) if s != w) {
                            out.push(Mv {
                                from: c,
                                to: t,
                                capture: Some(victim),
                                castle: None,
                                double: false,
                            });
                        }
                    }
                }
            }
            'N' => self.leaps(c, &KNIGHT, out),
            'G' => {
                self.leaps(c, &KING8, out);
                self.leaps(c, &TWO, out);
            }
            'B' => slide(&DIAG, self, out),
            'C' => {
                slide(&DIAG, self, out);
                self.leaps(c, &KNIGHT, out);
            }
            'R' => slide(&ORTHO, self, out),
            'M' => {
                slide(&ORTHO, self, out);
                self.leaps(c, &KNIGHT, out);
            }
            'A' => slide(&KING8, self, out),
            'Q' => {
                slide(&KING8, self, out);
                self.leaps(c, &KNIGHT, out);
            }
            'K' | 'S' => self.leaps(c, &KING8, out),
            'J' => {
                self.leaps(c, &KING8, out);
                self.leaps(c, &TWO, out);
                self.leaps(c, &KNIGHT, out);
            }
            'W' => {
                for &(dx, dy) in &KING8 {
                    let mut t = (c.0 + dx, c.1 + dy);
                    while on(t) && self.at(t).is_none() {
                        t = (t.0 + dx, t.1 + dy);
                    }
                    if !on(t) {
                        continue;
                    }
                    t = (t.0 + dx, t.1 + dy);
                    while on(t) {
                        match self.at(t) {
                            None => out.push(Mv {
                                from: c,
                                to: t,
                                capture: None,
                                castle: None,
                                double: false,
                            }),
                            Some((s, _)) => {
                                if s != w {
                                    out.push(Mv {
                                        from: c,
                                        to: t,
                                        capture: Some(t),
                                        castle: None,
                                        double: false,
                                    });
                                }
                                break;
                            }
                        }
                        t = (t.0 + dx, t.1 + dy);
                    }
                }
            }
            other => panic!("unknown letter {other}"),
        }
    }

    /// Whether a piece of side `by` could capture on `cell` (an empty cell as if an enemy of
    /// `by` stood there).
    fn attacked(&self, cell: (i32, i32), by: bool) -> bool {
        let mut probe = self.clone();
        probe.ep = None;
        if probe.at(cell).is_none() {
            probe.set(cell, Some((!by, 'S')));
        }
        let mut mv = Vec::new();
        for f in 0..10 {
            for r in 0..10 {
                if matches!(probe.at((f, r)), Some((s, _)) if s == by) {
                    mv.clear();
                    probe.piece_moves((f, r), &mut mv);
                    if mv.iter().any(|m| m.capture == Some(cell)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn king(&self, w: bool) -> (i32, i32) {
        for f in 0..10 {
            for r in 0..10 {
                if self.at((f, r)) == Some((w, 'K')) {
                    return (f, r);
                }
            }
        }
        panic!("no king")
    }

    /// Whether the game is over before any turn (W-20: a King, or a Pawn left unpromoted, on
    /// its side's eighth row).
    fn goal(&self) -> bool {
        for w in [true, false] {
            let r = Ref::row(w, 8);
            for f in 0..10 {
                if matches!(self.at((f, r)), Some((s, 'K' | 'P')) if s == w) {
                    return true;
                }
            }
        }
        false
    }

    /// Plays a movement with the mover becoming `kind`.
    fn apply(&self, m: &Mv, kind: char) -> Ref {
        let mut n = self.clone();
        let w = self.white;
        let piece = n.at(m.from);
        n.set(m.from, None);
        if let Some(ci) = m.castle {
            let cs = &CASTLES[ci];
            let ps: Vec<_> = cs.partners.iter().map(|&(a, b)| (b, n.at(a))).collect();
            for &(a, _) in &cs.partners {
                n.set(a, None);
            }
            n.set(m.to, piece);
            for (b, p) in ps {
                n.set(b, p);
            }
        } else {
            if let Some(cap) = m.capture {
                n.set(cap, None);
            }
            n.set(m.to, Some((w, kind)));
            if let Some(piece) = piece
                && kind != piece.1
            {
                n.reserve[Ref::side(w)]["SJW".find(kind).unwrap()] -= 1;
            }
        }
        for (i, cs) in CASTLES.iter().enumerate() {
            let touched = |c: (i32, i32)| m.from == c || m.to == c || m.capture == Some(c);
            if touched(cs.king.0) || cs.partners.iter().any(|&(a, _)| touched(a)) {
                n.rights[i] = false;
            }
        }
        n.ep = m
            .double
            .then_some((m.from.0, i32::midpoint(m.from.1, m.to.1)));
        n.white = !w;
        n
    }

    /// Every legal successor position.
    pub fn children(&self) -> Vec<Ref> {
        let mut out = Vec::new();
        if self.goal() {
            return out;
        }
        let w = self.white;
        let s = Ref::side(w);
        let mut moves = Vec::new();
        for f in 0..10 {
            for r in 0..10 {
                if matches!(self.at((f, r)), Some((x, _)) if x == w) {
                    self.piece_moves((f, r), &mut moves);
                }
            }
        }
        for (i, cs) in CASTLES.iter().enumerate() {
            if cs.white != w || !self.rights[i] || self.at(cs.king.0) != Some((w, 'K')) {
                continue;
            }
            if !cs
                .partners
                .iter()
                .all(|&(a, _)| matches!(self.at(a), Some((x, _)) if x == w))
            {
                continue;
            }
            if !cs.empty.iter().all(|&e| self.at(e).is_none()) {
                continue;
            }
            if cs.safe.iter().any(|&c| self.attacked(c, !w)) {
                continue;
            }
            moves.push(Mv {
                from: cs.king.0,
                to: cs.king.1,
                capture: None,
                castle: Some(i),
                double: false,
            });
        }
        for m in &moves {
            let (_, k) = self.at(m.from).unwrap();
            let mut kinds: Vec<char> = Vec::new();
            let mut must = false;
            if m.castle.is_none() {
                match k {
                    'P' if m.to.1 == Ref::row(w, 8) && self.reserve[s][0] > 0 => {
                        kinds.push('S');
                        must = true;
                    }
                    'G' if m.capture.is_some_and(|c| self.at(c) == Some((!w, 'N')))
                        && self.reserve[s][1] > 0 =>
                    {
                        kinds.push('J');
                        must = true;
                    }
                    'A' if self.reserve[s][2] > 0 => {
                        let moved = self.apply(m, 'A');
                        if let Some(kc) = (0..10)
                            .flat_map(|f| (0..10).map(move |r| (f, r)))
                            .find(|&c| moved.at(c) == Some((!w, 'K')))
                        {
                            let mut mv = Vec::new();
                            moved.piece_moves(m.to, &mut mv);
                            if mv.iter().any(|x| x.capture == Some(kc)) {
                                kinds.push('W');
                                must = true;
                            }
                        }
                    }
                    'S' => {
                        if m.to.1 == Ref::row(w, 9) && m.from.1 != m.to.1 && self.reserve[s][1] > 0
                        {
                            kinds.push('J');
                        }
                        if m.to.1 == Ref::row(w, 10) && m.from.1 != m.to.1 && self.reserve[s][2] > 0
                        {
                            kinds.push('W');
                        }
                    }
                    _ => {}
                }
            }
            if !must {
                kinds.insert(0, k);
            }
            for kind in kinds {
                let n = self.apply(m, kind);
                if !n.attacked(n.king(w), !w) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Leaf count `depth` turns deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let c = self.children();
        if depth == 1 {
            return c.len() as u64;
        }
        c.iter().map(|n| n.perft(depth - 1)).sum()
    }
}
