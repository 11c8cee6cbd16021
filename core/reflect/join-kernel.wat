;; The inner loop of the neighbour join (see join-layout.ts for the arrays and neighbours.ts for why
;; the filters are exact). Assembled by scripts/build-join-kernel.mjs into join-kernel-wasm.ts.
;;
;; For a probe row i and a slot group g, every probe token of i (rarest first, with the cut lo / c)
;; walks the posting list of that token in group g, sorted by b descending, until b < cut: below it
;; c·b < lo, so the pair's first shared token cannot be this one. Each entry j < i then meets, in
;; one test: the shared-bin count against both rows' minimum (cm) and the bound sqrt(Tx(c)·Ty(c))
;; with Ty over-estimated by three lines (ty); then a once-per-pair stamp, and the exact
;; float64 dot product in j's dimension order, rounded to float32 as the reference's cosines are.
(module
  (import "env" "mem" (memory 1 65536 shared))
  ;; byte offsets of the shared arrays (join-layout.ts)
  (global $rowOff (export "rowOff") (mut i32) (i32.const 0))   ;; i32[n+1]
  (global $rowDim (export "rowDim") (mut i32) (i32.const 0))   ;; i32[nnz], dimension order
  (global $rowVal (export "rowVal") (mut i32) (i32.const 0))   ;; f32[nnz]
  (global $sk (export "sk") (mut i32) (i32.const 0))           ;; 256-bit bin sketch per row
  (global $ty (export "ty") (mut i32) (i32.const 0))           ;; f32[6] per row: A1 B1 A2 B2 A3 B3
  (global $cm (export "cm") (mut i32) (i32.const 0))           ;; i32 per row: bins needed alone
  (global $pOff (export "pOff") (mut i32) (i32.const 0))       ;; i32[n+1] into pRank/pCut
  (global $pRank (export "pRank") (mut i32) (i32.const 0))     ;; probe tokens, rarest first
  (global $pCut (export "pCut") (mut i32) (i32.const 0))       ;; f32 lo / c, rounded down
  (global $txOff (export "txOff") (mut i32) (i32.const 0))     ;; i32[n+1] into txVal
  (global $txVal (export "txVal") (mut i32) (i32.const 0))     ;; f64 prefix sums of bin masses
  (global $postOff (export "postOff") (mut i32) (i32.const 0)) ;; i32[G*T+1], group-major
  (global $pj (export "pj") (mut i32) (i32.const 0))           ;; i32 row per posting
  (global $pb (export "pb") (mut i32) (i32.const 0))           ;; f32 b per posting, rounded up
  ;; this instance's scratch
  (global $stamp (export "stamp") (mut i32) (i32.const 0))     ;; i32[n], last probe per row
  (global $dense (export "dense") (mut i32) (i32.const 0))     ;; f64[dim], zero between probes
  (global $outI (export "outI") (mut i32) (i32.const 0))
  (global $outJ (export "outJ") (mut i32) (i32.const 0))
  (global $outC (export "outC") (mut i32) (i32.const 0))
  (global $cap (export "cap") (mut i32) (i32.const 0))
  (global $T (export "T") (mut i32) (i32.const 0))
  (global $gsize (export "gsize") (mut i32) (i32.const 0))
  (global $lo2 (export "lo2") (mut f64) (f64.const 0))
  (global $minCos (export "minCos") (mut f64) (f64.const 0))
  (global $np (export "np") (mut i32) (i32.const 0))
  (global $postings (export "postings") (mut f64) (f64.const 0))
  (global $bounded (export "bounded") (mut f64) (f64.const 0))
  (global $exact (export "exact") (mut f64) (f64.const 0))

  ;; Probes rows i0, i0 + stride, ... below i1 against group g. Returns the first row not probed:
  ;; i1 or more when done, less when the pair buffer could overflow (the host drains it and calls
  ;; again from there).
  (func (export "probeRange") (param $g i32) (param $i0 i32) (param $i1 i32) (param $stride i32) (result i32)
    (local $i i32)
    (local.set $i (local.get $i0))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_s (local.get $i) (local.get $i1)))
        (if (i32.gt_s (i32.add (global.get $np) (global.get $gsize)) (global.get $cap))
          (then (return (local.get $i))))
        (call $probe (local.get $i) (local.get $g))
        (local.set $i (i32.add (local.get $i) (local.get $stride)))
        (br $rows)))
    (local.get $i))

  (func $probe (param $i i32) (param $g i32)
    (local $p i32) (local $p1 i32) (local $k i32) (local $ke i32) (local $j i32) (local $o i32)
    (local $lim i32) (local $base i32) (local $cut f32) (local $s0 i64) (local $s1 i64) (local $s2 i64) (local $s3 i64)
    (local $c i32) (local $tx i32) (local $txn i32) (local $cmi i32) (local $tc f64) (local $cf f64)
    (local $filled i32) (local $q i32) (local $qe i32) (local $dot f64) (local $cc f32)
    (local $rs i32) (local $re i32) (local $scanned i32) (local $tested i32) (local $ex i32)
    (local.set $p (i32.load (i32.add (global.get $pOff) (i32.shl (local.get $i) (i32.const 2)))))
    (local.set $p1 (i32.load offset=4 (i32.add (global.get $pOff) (i32.shl (local.get $i) (i32.const 2)))))
    (if (i32.ge_s (local.get $p) (local.get $p1)) (then (return)))
    ;; only rows j < i (each pair once), and only this group's rows
    (local.set $lim (i32.mul (i32.add (local.get $g) (i32.const 1)) (global.get $gsize)))
    (if (i32.lt_s (local.get $i) (local.get $lim)) (then (local.set $lim (local.get $i))))
    (local.set $o (i32.add (global.get $sk) (i32.shl (local.get $i) (i32.const 5))))
    (local.set $s0 (i64.load (local.get $o)))
    (local.set $s1 (i64.load offset=8 (local.get $o)))
    (local.set $s2 (i64.load offset=16 (local.get $o)))
    (local.set $s3 (i64.load offset=24 (local.get $o)))
    (local.set $o (i32.add (global.get $txOff) (i32.shl (local.get $i) (i32.const 2))))
    (local.set $tx (i32.load (local.get $o)))
    (local.set $txn (i32.sub (i32.sub (i32.load offset=4 (local.get $o)) (local.get $tx)) (i32.const 1)))
    (local.set $tx (i32.add (global.get $txVal) (i32.shl (local.get $tx) (i32.const 3))))
    (local.set $cmi (i32.load (i32.add (global.get $cm) (i32.shl (local.get $i) (i32.const 2)))))
    (local.set $base (i32.mul (local.get $g) (global.get $T)))
    (local.set $rs (i32.load (i32.add (global.get $rowOff) (i32.shl (local.get $i) (i32.const 2)))))
    (local.set $re (i32.load offset=4 (i32.add (global.get $rowOff) (i32.shl (local.get $i) (i32.const 2)))))
    (loop $tokens
      (local.set $cut (f32.load (i32.add (global.get $pCut) (i32.shl (local.get $p) (i32.const 2)))))
      (local.set $o (i32.add (global.get $postOff)
        (i32.shl (i32.add (local.get $base) (i32.load (i32.add (global.get $pRank) (i32.shl (local.get $p) (i32.const 2))))) (i32.const 2))))
      (local.set $k (i32.load (local.get $o)))
      (local.set $ke (i32.load offset=4 (local.get $o)))
      (local.set $scanned (i32.sub (local.get $scanned) (local.get $k)))
      (block $endList
        (loop $entries
          (br_if $endList (i32.ge_s (local.get $k) (local.get $ke)))
          (br_if $endList (f32.lt (f32.load (i32.add (global.get $pb) (i32.shl (local.get $k) (i32.const 2)))) (local.get $cut)))
          (local.set $j (i32.load (i32.add (global.get $pj) (i32.shl (local.get $k) (i32.const 2)))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br_if $entries (i32.ge_s (local.get $j) (local.get $lim)))
          ;; c = bins both rows occupy. Out if c is below what either row needs with the other's
          ;; whole norm (cm), or if Tx(c)·Ty(c) < lo² for any of j's three lines. One branch for all
          ;; of it: each test alone would be an unpredictable branch, which costs more than the loads.
          (local.set $o (i32.add (global.get $sk) (i32.shl (local.get $j) (i32.const 5))))
          (local.set $c (i32.wrap_i64 (i64.add (i64.add
            (i64.popcnt (i64.and (local.get $s0) (i64.load (local.get $o))))
            (i64.popcnt (i64.and (local.get $s1) (i64.load offset=8 (local.get $o)))))
            (i64.add
            (i64.popcnt (i64.and (local.get $s2) (i64.load offset=16 (local.get $o))))
            (i64.popcnt (i64.and (local.get $s3) (i64.load offset=24 (local.get $o))))))))
          (local.set $tc (f64.load (i32.add (local.get $tx) (i32.shl
            (select (local.get $c) (local.get $txn) (i32.lt_s (local.get $c) (local.get $txn))) (i32.const 3)))))
          (local.set $cf (f64.convert_i32_s (local.get $c)))
          (local.set $o (i32.add (global.get $ty) (i32.mul (local.get $j) (i32.const 24))))
          (local.set $tested (i32.add (local.get $tested) (i32.const 1)))
          (br_if $entries (i32.or (i32.or (i32.or
            (i32.lt_s (local.get $c) (local.get $cmi))
            (i32.lt_s (local.get $c) (i32.load (i32.add (global.get $cm) (i32.shl (local.get $j) (i32.const 2))))))
            (i32.or
              (f64.lt (f64.mul (local.get $tc) (f64.add (f64.promote_f32 (f32.load (local.get $o))) (f64.mul (local.get $cf) (f64.promote_f32 (f32.load offset=4 (local.get $o)))))) (global.get $lo2))
              (f64.lt (f64.mul (local.get $tc) (f64.add (f64.promote_f32 (f32.load offset=8 (local.get $o))) (f64.mul (local.get $cf) (f64.promote_f32 (f32.load offset=12 (local.get $o)))))) (global.get $lo2))))
            (f64.lt (f64.mul (local.get $tc) (f64.add (f64.promote_f32 (f32.load offset=16 (local.get $o))) (f64.mul (local.get $cf) (f64.promote_f32 (f32.load offset=20 (local.get $o)))))) (global.get $lo2))))
          ;; once per pair
          (local.set $o (i32.add (global.get $stamp) (i32.shl (local.get $j) (i32.const 2))))
          (br_if $entries (i32.eq (i32.load (local.get $o)) (local.get $i)))
          (i32.store (local.get $o) (local.get $i))
          (if (i32.eqz (local.get $filled)) (then
            (local.set $filled (i32.const 1))
            (local.set $q (local.get $rs))
            (block $f (loop $fl
              (br_if $f (i32.ge_s (local.get $q) (local.get $re)))
              (f64.store (i32.add (global.get $dense) (i32.shl (i32.load (i32.add (global.get $rowDim) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 3)))
                (f64.promote_f32 (f32.load (i32.add (global.get $rowVal) (i32.shl (local.get $q) (i32.const 2))))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $fl)))))
          (local.set $ex (i32.add (local.get $ex) (i32.const 1)))
          (local.set $q (i32.load (i32.add (global.get $rowOff) (i32.shl (local.get $j) (i32.const 2)))))
          (local.set $qe (i32.load offset=4 (i32.add (global.get $rowOff) (i32.shl (local.get $j) (i32.const 2)))))
          (local.set $dot (f64.const 0))
          (block $d (loop $dl
            (br_if $d (i32.ge_s (local.get $q) (local.get $qe)))
            (local.set $dot (f64.add (local.get $dot)
              (f64.mul (f64.load (i32.add (global.get $dense) (i32.shl (i32.load (i32.add (global.get $rowDim) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 3))))
                       (f64.promote_f32 (f32.load (i32.add (global.get $rowVal) (i32.shl (local.get $q) (i32.const 2))))))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $dl)))
          (local.set $cc (f32.demote_f64 (local.get $dot)))
          (br_if $entries (i32.eqz (f64.ge (f64.promote_f32 (local.get $cc)) (global.get $minCos))))
          (local.set $o (i32.shl (global.get $np) (i32.const 2)))
          (i32.store (i32.add (global.get $outI) (local.get $o)) (local.get $i))
          (i32.store (i32.add (global.get $outJ) (local.get $o)) (local.get $j))
          (f32.store (i32.add (global.get $outC) (local.get $o)) (local.get $cc))
          (global.set $np (i32.add (global.get $np) (i32.const 1)))
          (br $entries)))
      (local.set $scanned (i32.add (local.get $scanned) (local.get $k)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $tokens (i32.lt_s (local.get $p) (local.get $p1))))
    (if (local.get $filled) (then
      (local.set $q (local.get $rs))
      (block $f (loop $fl
        (br_if $f (i32.ge_s (local.get $q) (local.get $re)))
        (f64.store (i32.add (global.get $dense) (i32.shl (i32.load (i32.add (global.get $rowDim) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 3))) (f64.const 0))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $fl)))))
    (global.set $postings (f64.add (global.get $postings) (f64.convert_i32_s (local.get $scanned))))
    (global.set $bounded (f64.add (global.get $bounded) (f64.convert_i32_s (local.get $tested))))
    (global.set $exact (f64.add (global.get $exact) (f64.convert_i32_s (local.get $ex)))))
)
