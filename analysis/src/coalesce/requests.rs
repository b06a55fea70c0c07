//! Memory requests of one warp (IPDA Figure 7): the byte offsets of the 32 threads' accesses
//! relative to thread 0 are fitted greedily into requests, each covering at most one
//! transaction of [`LINE`] bytes.

/// Threads per warp.
pub const WARP: u32 = 32;
/// Bytes one memory request serves. The paper fits into 256 bytes; current NVIDIA and AMD
/// GPUs coalesce a warp's accesses per 128-byte cache line, which is what is counted here.
pub const LINE: i64 = 128;

/// Requests for accesses of `width` bytes at `offsets` (one per thread).
pub fn requests(offsets: &[i64], width: i64) -> u32 {
    let width = width.max(1);
    // Each request is the byte range [low, high) it already covers.
    let mut reqs: Vec<(i64, i64)> = Vec::new();
    for &c in offsets {
        let end = c.saturating_add(width);
        let fit = reqs.iter_mut().find(|(lo, hi)| {
            let (nlo, nhi) = ((*lo).min(c), (*hi).max(end));
            nhi.saturating_sub(nlo) <= LINE.max(width)
        });
        match fit {
            Some((lo, hi)) => {
                *lo = (*lo).min(c);
                *hi = (*hi).max(end);
            }
            None => reqs.push((c, end)),
        }
    }
    reqs.len() as u32
}

/// The fewest requests `threads` distinct consecutive elements of `width` bytes can take.
pub fn ideal(threads: u32, width: i64) -> u32 {
    let bytes = i64::from(threads) * width.max(1);
    (((bytes + LINE - 1) / LINE).max(1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strided(stride: i64) -> Vec<i64> {
        (0..32).map(|t| t * stride).collect()
    }

    #[test]
    fn unit_stride_doubles_take_two_lines() {
        assert_eq!(requests(&strided(8), 8), 2);
        assert_eq!(ideal(32, 8), 2);
        assert_eq!(requests(&strided(4), 4), 1);
        assert_eq!(ideal(32, 4), 1);
    }

    #[test]
    fn uniform_access_is_one_request() {
        assert_eq!(requests(&[0; 32], 8), 1);
    }

    #[test]
    fn large_strides_take_one_request_per_thread() {
        assert_eq!(requests(&strided(512), 8), 32);
        assert_eq!(requests(&strided(-512), 8), 32);
        assert_eq!(requests(&strided(128), 8), 32);
        // Two threads per line.
        assert_eq!(requests(&strided(64), 8), 16);
    }

    #[test]
    fn mixed_offsets_fit_where_they_can() {
        // Threads 0..15 contiguous, 16..31 contiguous 4096 bytes further.
        let offs: Vec<i64> = (0..32)
            .map(|t| if t < 16 { t * 8 } else { 4096 + (t - 16) * 8 })
            .collect();
        assert_eq!(requests(&offs, 8), 2);
        assert_eq!(requests(&[], 8), 0);
    }
}
