//! Unified diff of two texts by lines (Myers' algorithm), as `patch -p1` and `git apply` read.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    Equal,
    Delete,
    Insert,
}

/// Beyond this many differing lines the middle of the files is written as one replacement.
const MAX_EDIT_DISTANCE: usize = 4000;
const CONTEXT: usize = 3;

pub(super) fn unified_diff(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let script = diff(&a, &b);

    // Each script entry with the old and new line indices it sits at.
    let mut rows = Vec::with_capacity(script.len());
    let (mut i, mut j) = (0usize, 0usize);
    for tag in script {
        rows.push((tag, i, j));
        match tag {
            Tag::Equal => {
                i += 1;
                j += 1;
            }
            Tag::Delete => i += 1,
            Tag::Insert => j += 1,
        }
    }
    // Rows within CONTEXT of a change are shown; runs of shown rows are hunks.
    let mut shown = vec![false; rows.len()];
    for (r, row) in rows.iter().enumerate() {
        if row.0 != Tag::Equal {
            let lo = r.saturating_sub(CONTEXT);
            let hi = (r + CONTEXT + 1).min(rows.len());
            shown[lo..hi].fill(true);
        }
    }

    let mut out = format!(
        "--- {}\n+++ {}\n",
        label(old_label, "a/"),
        label(new_label, "b/")
    );
    let mut r = 0;
    while r < rows.len() {
        if !shown[r] {
            r += 1;
            continue;
        }
        let start = r;
        while r < rows.len() && shown[r] {
            r += 1;
        }
        let hunk = &rows[start..r];
        let old_count = hunk.iter().filter(|x| x.0 != Tag::Insert).count();
        let new_count = hunk.iter().filter(|x| x.0 != Tag::Delete).count();
        let (_, oi, nj) = hunk[0];
        out.push_str(&format!(
            "@@ -{} +{} @@",
            range(oi, old_count),
            range(nj, new_count)
        ));
        if let Some(f) = function_context(&a[..oi]) {
            out.push(' ');
            out.push_str(f);
        }
        out.push('\n');
        for &(tag, oi, nj) in hunk {
            let (prefix, line) = match tag {
                Tag::Equal => (' ', a[oi]),
                Tag::Delete => ('-', a[oi]),
                Tag::Insert => ('+', b[nj]),
            };
            out.push(prefix);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// The last line before the hunk that starts with a letter, `_` or `$` (a function or type
/// heading, as `git diff` and `diff -p` show after `@@`), cut to 80 bytes.
fn function_context<'a>(before: &[&'a str]) -> Option<&'a str> {
    let line = before
        .iter()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$'))?;
    let mut line = line.trim_end();
    if line.len() > 80 {
        let mut cut = 80;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line = line[..cut].trim_end();
    }
    Some(line)
}

fn label(l: &str, prefix: &str) -> String {
    if l == "/dev/null" || l.starts_with(prefix) {
        l.to_string()
    } else {
        format!("{prefix}{}", l.trim_start_matches('/'))
    }
}

/// `start,count` with 1-based `start`; an empty range names the line before it.
fn range(start0: usize, count: usize) -> String {
    match count {
        0 => format!("{start0},0"),
        1 => format!("{}", start0 + 1),
        _ => format!("{},{count}", start0 + 1),
    }
}

/// Shortest edit script from `a` to `b`.
fn diff(a: &[&str], b: &[&str]) -> Vec<Tag> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut script = vec![Tag::Equal; prefix];
    match myers(am, bm) {
        Some(mid) => script.extend(mid),
        None => {
            script.extend(std::iter::repeat_n(Tag::Delete, am.len()));
            script.extend(std::iter::repeat_n(Tag::Insert, bm.len()));
        }
    }
    script.extend(std::iter::repeat_n(Tag::Equal, suffix));
    script
}

/// Myers' O(ND) algorithm keeping, for each `d`, the furthest-reaching x of the diagonals
/// `-d-1..=d+1` (O(D²) memory). None when the distance exceeds [`MAX_EDIT_DISTANCE`].
fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Tag>> {
    let (n, m) = (a.len() as i64, b.len() as i64);
    let max = (a.len() + b.len()).min(MAX_EDIT_DISTANCE) as i64;
    let offset = max + 1;
    let mut v = vec![0i64; 2 * max as usize + 3];
    let mut trace: Vec<Vec<i64>> = Vec::new();
    let mut found = None;
    for d in 0..=max {
        trace.push(v[(offset - d - 1) as usize..=(offset + d + 1) as usize].to_vec());
        let mut k = -d;
        while k <= d {
            let idx = (offset + k) as usize;
            let mut x = if k == -d || (k != d && v[idx - 1] < v[idx + 1]) {
                v[idx + 1]
            } else {
                v[idx - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[idx] = x;
            if x >= n && y >= m {
                found = Some(d);
                break;
            }
            k += 2;
        }
        if found.is_some() {
            break;
        }
    }
    let dmax = found?;
    // Walk back from (n, m).
    let mut rev = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..=dmax).rev() {
        let snap = &trace[d as usize];
        let at = |k: i64| snap[(k + d + 1) as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && at(k - 1) < at(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = at(prev_k);
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            rev.push(Tag::Equal);
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            rev.push(if x == prev_x {
                Tag::Insert
            } else {
                Tag::Delete
            });
        }
        x = prev_x;
        y = prev_y;
    }
    rev.reverse();
    Some(rev)
}
