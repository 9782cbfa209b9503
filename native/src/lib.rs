//! One plain combat's rounds on integer inputs: native/combat_kernel.py in Rust.
//!
//! The same rules as deckkit/animayhem/engine/combat.py `fight` for a combat no card text
//! touches (see native/combat_kernel.py for the inputs and what "plain" means). `resolve` is one
//! call from Python per combat, its lists converted on the way in and out; `resolve_batch` runs
//! many combats in one call, to tell the cost of crossing the boundary from the work itself.

use pyo3::prelude::*;
use pyo3::types::PyList;

const KILL_TRIPLE_DAMAGE: i64 = 2;
const RESULT_DEFEATED: i64 = 0;
const RESULT_WIPED: i64 = 1;
const RESULT_RETREAT: i64 = 2;
const RESULT_NONE: i64 = 3;
const CARD_WIDTH: usize = 9;
const CHAR_WIDTH: usize = 5;
const EQUIP_WIDTH: usize = 7;

#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    // Python's // (floor division), not Rust's truncating /.
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

#[inline]
fn apply_op(op: i64, value: i64, current: i64) -> i64 {
    match op {
        0 => current,
        1 => current + value,
        2 => current * value,
        3 => floor_div(current, value),
        _ => value,
    }
}

#[inline]
fn health_state(kill: i64, health: i64, start: i64, damage: i64, health_max: i64) -> i64 {
    if health > 0 {
        0
    } else if kill == KILL_TRIPLE_DAMAGE {
        if damage >= 3 * start {
            2
        } else {
            1
        }
    } else if health <= -health_max {
        2
    } else {
        1
    }
}

struct Kernel<'a> {
    cards: &'a [i64],
    pile: Vec<i64>,
    discard: Vec<i64>,
    us: &'a [f64],
    pos: usize,
    side_dmg: [i64; 16],
    side_def: [i64; 16],
}

impl<'a> Kernel<'a> {
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let u = self.us[self.pos];
        self.pos += 1;
        (u * n as f64) as usize
    }

    fn draw(&mut self) -> i64 {
        if self.pile.is_empty() {
            if self.discard.is_empty() {
                return -1;
            }
            std::mem::swap(&mut self.pile, &mut self.discard);
            let mut i = self.pile.len() - 1;
            while i > 0 {
                let j = (self.us[self.pos] * (i + 1) as f64) as usize;
                self.pos += 1;
                self.pile.swap(i, j);
                i -= 1;
            }
        }
        self.pile.pop().unwrap()
    }

    fn play_card(&mut self, recipient: usize, opponent: usize) {
        for _ in 0..4 {
            let code = self.draw();
            if code < 0 {
                return;
            }
            let k = code as usize * CARD_WIDTH;
            let c = &self.cards[k..k + CARD_WIDTH];
            self.side_dmg[recipient] = apply_op(c[0], c[1], self.side_dmg[recipient]);
            self.side_def[recipient] = apply_op(c[2], c[3], self.side_def[recipient]);
            self.side_dmg[opponent] = apply_op(c[4], c[5], self.side_dmg[opponent]);
            self.side_def[opponent] = apply_op(c[6], c[7], self.side_def[opponent]);
            self.discard.push(code);
            if c[8] == 0 {
                return;
            }
        }
    }
}

/// The combat's outcome: [result, rounds fought, floats used, disaster health, states...,
/// equipment uses...], with the piles as they end.
#[allow(clippy::too_many_arguments)]
fn fight(
    rules: &[i64],
    dis: &[i64],
    chars: &[i64],
    equip: &[i64],
    retreat_round: i64,
    cards: &[i64],
    pile: Vec<i64>,
    discard: Vec<i64>,
    us: &[f64],
) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let (kill, per_attacker, stalemate, cap) = (rules[0], rules[1], rules[2], rules[3] as usize);
    let (d_damage, d_defense, frenzy, incapacitated) = (dis[0], dis[1], dis[3] != 0, dis[4] != 0);
    let mut d_health = dis[2];
    let n = chars.len() / CHAR_WIDTH;
    assert!(n <= 15, "at most 15 characters in one combat");
    let col = |i: usize, f: usize| chars[i * CHAR_WIDTH + f];
    let mut health = [0i64; 15];
    let mut state = [0i64; 15];
    for i in 0..n {
        health[i] = col(i, 2);
    }
    let start = health;
    let n_equip = equip.len() / EQUIP_WIDTH;
    let mut uses: Vec<i64> = (0..n_equip).map(|e| equip[e * EQUIP_WIDTH + 1]).collect();
    let mut held: Vec<bool> = vec![true; n_equip];
    let mut k = Kernel {
        cards,
        pile,
        discard,
        us,
        pos: 0,
        side_dmg: [0; 16],
        side_def: [0; 16],
    };
    let result;
    let mut rnd: i64 = 0;
    let mut fought: i64 = 0;
    let mut alive: Vec<usize> = Vec::with_capacity(n);
    let mut pool: Vec<usize> = Vec::with_capacity(n);
    let mut fighters: Vec<usize> = Vec::with_capacity(n);
    loop {
        rnd += 1;
        alive.clear();
        alive.extend((0..n).filter(|&i| state[i] == 0));
        if alive.is_empty() {
            result = if rnd > 1 { RESULT_WIPED } else { RESULT_NONE };
            break;
        }
        if rnd > stalemate || rnd == retreat_round {
            let v = alive[k.below(alive.len())];
            let attack = if incapacitated { 0 } else { d_damage };
            let loss = attack - col(v, 1);
            health[v] -= if loss >= 1 { loss } else { 0 };
            state[v] = health_state(kill, health[v], start[v], attack, col(v, 3));
            result = RESULT_RETREAT;
            break;
        }
        fought += 1;
        pool.clear();
        pool.extend(alive.iter().copied().filter(|&i| col(i, 4) != 0));
        if pool.is_empty() {
            pool.extend(alive.iter().copied());
        }
        let target = pool[k.below(pool.len())];
        fighters.clear();
        fighters.extend(alive.iter().copied().filter(|&i| i != target));
        fighters.sort_by_key(|&i| -col(i, 0)); // stable, as Python's sorted
        fighters.truncate(cap.saturating_sub(1));
        fighters.insert(0, target);
        for &i in &fighters {
            k.side_dmg[i] = col(i, 0);
            k.side_def[i] = col(i, 1);
        }
        k.side_dmg[n] = d_damage;
        k.side_def[n] = d_defense;
        for e in 0..n_equip {
            let b = e * EQUIP_WIDTH;
            let i = equip[b] as usize;
            if !held[e] || state[i] != 0 || !fighters.contains(&i) {
                continue;
            }
            k.side_dmg[i] = apply_op(equip[b + 3], equip[b + 4], k.side_dmg[i]);
            k.side_def[i] = apply_op(equip[b + 5], equip[b + 6], k.side_def[i]);
            uses[e] -= 1;
            if uses[e] <= 0 {
                uses[e] = equip[b + 2];
                held[e] = false;
            }
        }
        if per_attacker != 0 {
            for idx in 0..fighters.len() {
                k.play_card(fighters[idx], n);
            }
        } else {
            k.play_card(target, n);
        }
        k.play_card(n, target);
        let total: i64 = fighters.iter().map(|&i| k.side_dmg[i].max(0)).sum();
        let to_disaster = total - k.side_def[n].max(0);
        let attack = if incapacitated {
            0
        } else {
            k.side_dmg[n].max(0)
        };
        let victims: &[usize] = if frenzy {
            &fighters
        } else {
            std::slice::from_ref(&target)
        };
        let mut losses = [0i64; 16];
        for (j, &v) in victims.iter().enumerate() {
            let loss = attack - k.side_def[v].max(0);
            losses[j] = if loss >= 1 { loss } else { 0 };
        }
        if to_disaster >= 1 {
            d_health -= to_disaster;
        }
        for (j, &v) in victims.iter().enumerate() {
            health[v] -= losses[j];
        }
        for &v in victims {
            if state[v] == 0 {
                state[v] = health_state(kill, health[v], start[v], attack, col(v, 3));
                if state[v] != 0 {
                    for e in 0..n_equip {
                        if equip[e * EQUIP_WIDTH] as usize == v {
                            held[e] = false; // dropped under the location
                        }
                    }
                }
            }
        }
        if d_health <= 0 {
            result = RESULT_DEFEATED;
            break;
        }
        if fighters.iter().all(|&i| state[i] != 0) {
            result = RESULT_WIPED;
            break;
        }
    }
    let mut out = vec![result, fought, k.pos as i64, d_health];
    out.extend_from_slice(&state[..n]);
    out.extend_from_slice(&uses);
    (out, k.pile, k.discard)
}

/// One combat from Python: the same arguments as combat_kernel.resolve; ``pile`` and
/// ``discard`` are changed in place as the Python kernel does.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn resolve(
    rules: Vec<i64>,
    dis: Vec<i64>,
    chars: Vec<i64>,
    equip: Vec<i64>,
    retreat_round: i64,
    cards: Vec<i64>,
    pile: &PyList,
    discard: &PyList,
    us: Vec<f64>,
) -> PyResult<Vec<i64>> {
    let p: Vec<i64> = pile.extract()?;
    let d: Vec<i64> = discard.extract()?;
    let (out, p2, d2) = fight(
        &rules,
        &dis,
        &chars,
        &equip,
        retreat_round,
        &cards,
        p,
        d,
        &us,
    );
    pile.set_slice(0, pile.len(), PyList::new(pile.py(), &p2))?;
    discard.set_slice(0, discard.len(), PyList::new(discard.py(), &d2))?;
    Ok(out)
}

type Combat = (
    Vec<i64>,
    Vec<i64>,
    Vec<i64>,
    Vec<i64>,
    i64,
    Vec<i64>,
    Vec<i64>,
    Vec<f64>,
);

/// CPU time of this process in nanoseconds (as Python's time.process_time_ns).
fn process_ns() -> u128 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128
}

/// Many combats in one call (same card table): converted once, then ``repeat`` passes timed in
/// Rust alone; returns the outcomes of the last pass and the CPU nanoseconds of all passes.
#[pyfunction]
fn resolve_batch(cards: Vec<i64>, combats: Vec<Combat>, repeat: usize) -> (Vec<Vec<i64>>, u128) {
    let started = process_ns();
    let mut outs = Vec::new();
    for _ in 0..repeat.max(1) {
        outs.clear();
        for (rules, dis, chars, equip, retreat_round, pile, discard, us) in &combats {
            let (out, _, _) = fight(
                rules,
                dis,
                chars,
                equip,
                *retreat_round,
                &cards,
                pile.clone(),
                discard.clone(),
                us,
            );
            outs.push(out);
        }
    }
    (outs, process_ns() - started)
}

/// The card table converted once (as a native core would hold it for a whole run): its
/// ``resolve`` takes the other arguments of the module's ``resolve``.
#[pyclass]
struct Cards {
    cards: Vec<i64>,
}

#[pymethods]
impl Cards {
    #[new]
    fn new(cards: Vec<i64>) -> Self {
        Cards { cards }
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve(
        &self,
        rules: Vec<i64>,
        dis: Vec<i64>,
        chars: Vec<i64>,
        equip: Vec<i64>,
        retreat_round: i64,
        pile: &PyList,
        discard: &PyList,
        us: Vec<f64>,
    ) -> PyResult<Vec<i64>> {
        let p: Vec<i64> = pile.extract()?;
        let d: Vec<i64> = discard.extract()?;
        let (out, p2, d2) = fight(
            &rules,
            &dis,
            &chars,
            &equip,
            retreat_round,
            &self.cards,
            p,
            d,
            &us,
        );
        pile.set_slice(0, pile.len(), PyList::new(pile.py(), &p2))?;
        discard.set_slice(0, discard.len(), PyList::new(discard.py(), &d2))?;
        Ok(out)
    }
}

#[pymodule]
fn deckkit_native(_py: Python<'_>, m: &PyModule) -> PyResult<()> {
    m.add_class::<Cards>()?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_batch, m)?)?;
    Ok(())
}
