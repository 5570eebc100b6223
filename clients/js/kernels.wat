;; kernels.wat: the WebAssembly half of _core.mjs (docs/spec.md sections 2
;; and 4), built into _wasm.mjs by build_wasm.mjs (node build_wasm.mjs
;; WABT_PREFIX, the npm package wabt installed under WABT_PREFIX). Native
;; 64-bit words for the draws and the keys, and Eller's rows as _core.mjs's
;; ellerRow makes them (the same decisions, so the same bytes). Pointers are
;; byte offsets into the memory; fill and rows leave the stream's z after
;; their last draw at byte 0 (i64).
(module
  (memory (export "memory") 3)

  ;; mix(z): SplitMix64's finaliser (spec 2.1), for the BigInt keys (an i64
  ;; is a BigInt to JavaScript, taken modulo 2**64, given back signed)
  (func $mix (export "mix") (param $z i64) (result i64)
    (local.set $z (i64.mul (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 30)))
                           (i64.const 0xbf58476d1ce4e5b9)))
    (local.set $z (i64.mul (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 27)))
                           (i64.const 0x94d049bb133111eb)))
    (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 31))))

  ;; salted(key, index, salt): the salted key of part index (spec 2.3)
  (func (export "salted") (param $key i64) (param $index i64) (param $salt i64) (result i64)
    (call $mix (i64.xor (local.get $key)
                        (call $mix (i64.add (i64.mul (local.get $index) (i64.const 0x9e3779b97f4a7c15))
                                            (local.get $salt))))))

  ;; the 64-bit z of its halves (as _core.mjs keeps them, int32)
  (func $join64 (param $zh i32) (param $zl i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $zh)) (i64.const 32))
            (i64.extend_i32_u (local.get $zl))))

  ;; fill(zh, zl, n, lo, hi): the draws of z, z + GOLDEN, ... (n of them:
  ;; SplitMix64's finaliser, spec 2.1), their low halves to the u32 array
  ;; at lo, their high halves to hi
  (func $fill (export "fill") (param $zh i32) (param $zl i32) (param $n i32) (param $lo i32) (param $hi i32)
    (local $z i64) (local $m i64) (local $i i32)
    (local.set $z (call $join64 (local.get $zh) (local.get $zl)))
    (local.set $n (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $m (i64.mul (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 30)))
                               (i64.const 0xbf58476d1ce4e5b9)))
        (local.set $m (i64.mul (i64.xor (local.get $m) (i64.shr_u (local.get $m) (i64.const 27)))
                               (i64.const 0x94d049bb133111eb)))
        (local.set $m (i64.xor (local.get $m) (i64.shr_u (local.get $m) (i64.const 31))))
        (i64.store32 (i32.add (local.get $lo) (local.get $i)) (local.get $m))
        (i64.store32 (i32.add (local.get $hi) (local.get $i)) (i64.shr_u (local.get $m) (i64.const 32)))
        (local.set $z (i64.add (local.get $z) (i64.const 0x9e3779b97f4a7c15)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $next)))
    (i64.store (i32.const 0) (local.get $z)))

  ;; sweep(w, J, O, left, right, lo, hi, out): one Eller row of width w
  ;; (w >= 1) into the bytes at out, from the sets at left, right (i32
  ;; arrays of w + 1 entries, the last one scratch: a set is a circular list
  ;; of its cells, left to right; then the next row's) and the draws at lo,
  ;; hi (u32 arrays): cell x joins x + 1's set when lo[x] is below J (at most
  ;; 2**32, hence a double) and the sets differ (left[x + 1] != x), and
  ;; closes its south wall (leaves its list) when hi[x] is at least O, unless
  ;; it is alone in its list (left[x] == x). Without branches, as the
  ;; package's eller_cell: the lists of x and x + 1 ride in locals (lx, rx:
  ;; left and right of x; l1, r1 of x + 1; l2: left of x + 2), and a store
  ;; that is not to happen goes to the scratch entry w.
  (func $sweep (export "sweep") (param $w i32) (param $jf f64) (param $of f64)
        (param $L i32) (param $R i32) (param $lo i32) (param $hi i32) (param $out i32)
    (local $J i64) (local $O i64) (local $x i32) (local $x1 i32) (local $x2 i32) (local $last i32)
    (local $a i32) (local $b i32) (local $lx i32) (local $rx i32) (local $l1 i32) (local $r1 i32)
    (local $l2 i32) (local $join i32) (local $close i32) (local $s i32)
    (local.set $J (i64.trunc_f64_u (local.get $jf)))
    (local.set $O (i64.trunc_f64_u (local.get $of)))
    (local.set $last (i32.sub (local.get $w) (i32.const 1)))
    (local.set $s (local.get $w))
    (local.set $lx (i32.load (local.get $L)))
    (local.set $rx (i32.load (local.get $R)))
    (local.set $l1 (i32.load offset=4 (local.get $L)))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $x) (local.get $last)))
        (local.set $x1 (i32.add (local.get $x) (i32.const 1)))
        (local.set $x2 (i32.add (local.get $x) (i32.const 2)))
        (local.set $r1 (i32.load (i32.add (local.get $R) (i32.shl (local.get $x1) (i32.const 2)))))
        (local.set $l2 (i32.load (i32.add (local.get $L) (i32.shl (local.get $x2) (i32.const 2)))))
        ;; the east wall: join x's set with x + 1's (a: left of x + 1, b: right of x)
        (local.set $a (local.get $l1))
        (local.set $b (local.get $rx))
        (local.set $join (i32.and (i32.ne (local.get $a) (local.get $x))
                                  (i64.lt_u (i64.load32_u (i32.add (local.get $lo) (i32.shl (local.get $x) (i32.const 2))))
                                            (local.get $J))))
        (i32.store (i32.add (local.get $R) (i32.shl (select (local.get $a) (local.get $s) (local.get $join)) (i32.const 2)))
                   (local.get $b))
        (i32.store (i32.add (local.get $L) (i32.shl (select (local.get $b) (local.get $s) (local.get $join)) (i32.const 2)))
                   (local.get $a))
        (local.set $lx (select (local.get $a) (local.get $lx)
                               (i32.and (local.get $join) (i32.eq (local.get $b) (local.get $x)))))
        (local.set $rx (select (local.get $x1) (local.get $rx) (local.get $join)))
        (local.set $l1 (select (local.get $x) (local.get $l1) (local.get $join)))
        (local.set $r1 (select (local.get $b) (local.get $r1)
                               (i32.and (local.get $join) (i32.eq (local.get $a) (local.get $x1)))))
        (local.set $l2 (select (local.get $a) (local.get $l2)
                               (i32.and (local.get $join) (i32.eq (local.get $b) (local.get $x2)))))
        ;; the south wall: x leaves its list unless it is alone
        (local.set $close (i32.and (i32.ne (local.get $lx) (local.get $x))
                                   (i64.ge_u (i64.load32_u (i32.add (local.get $hi) (i32.shl (local.get $x) (i32.const 2))))
                                             (local.get $O))))
        ;; (own, written out: V8 need not inline it)
        (i32.store (i32.add (local.get $R) (i32.shl (select (local.get $lx) (local.get $s) (local.get $close)) (i32.const 2)))
                   (local.get $rx))
        (i32.store (i32.add (local.get $L) (i32.shl (select (local.get $rx) (local.get $s) (local.get $close)) (i32.const 2)))
                   (local.get $lx))
        (i32.store (i32.add (local.get $L) (i32.shl (local.get $x) (i32.const 2)))
                   (select (local.get $x) (local.get $lx) (local.get $close)))
        (i32.store (i32.add (local.get $R) (i32.shl (local.get $x) (i32.const 2)))
                   (select (local.get $x) (local.get $rx) (local.get $close)))
        (local.set $l1 (select (local.get $lx) (local.get $l1)
                               (i32.and (local.get $close) (i32.eq (local.get $rx) (local.get $x1)))))
        (local.set $r1 (select (local.get $rx) (local.get $r1)
                               (i32.and (local.get $close) (i32.eq (local.get $lx) (local.get $x1)))))
        (local.set $l2 (select (local.get $lx) (local.get $l2)
                               (i32.and (local.get $close) (i32.eq (local.get $rx) (local.get $x2)))))
        (i32.store8 (i32.add (local.get $out) (local.get $x))
                    (i32.or (local.get $join) (i32.shl (i32.xor (local.get $close) (i32.const 1)) (i32.const 1))))
        (local.set $lx (local.get $l1))
        (local.set $rx (local.get $r1))
        (local.set $l1 (local.get $l2))
        (local.set $x (local.get $x1))
        (br $cell)))
    ;; the last cell: no east wall
    (local.set $close (i32.and (i32.ne (local.get $lx) (local.get $last))
                               (i64.ge_u (i64.load32_u (i32.add (local.get $hi) (i32.shl (local.get $last) (i32.const 2))))
                                         (local.get $O))))
    (call $own (local.get $L) (local.get $R) (local.get $last) (local.get $lx) (local.get $rx)
               (local.get $close) (local.get $s))
    (i32.store8 (i32.add (local.get $out) (local.get $last))
                (i32.shl (i32.xor (local.get $close) (i32.const 1)) (i32.const 1))))

  ;; own(left, right, x, lx, rx, close, s): x's list entries after its south
  ;; wall: with close, x leaves its list (lx and rx, its neighbours, are
  ;; linked) and is a set of its own; without, they stay lx and rx (the
  ;; link is stored to the scratch entry s)
  (func $own (param $L i32) (param $R i32) (param $x i32) (param $lx i32) (param $rx i32)
        (param $close i32) (param $s i32)
    (i32.store (i32.add (local.get $R) (i32.shl (select (local.get $lx) (local.get $s) (local.get $close)) (i32.const 2)))
               (local.get $rx))
    (i32.store (i32.add (local.get $L) (i32.shl (select (local.get $rx) (local.get $s) (local.get $close)) (i32.const 2)))
               (local.get $lx))
    (i32.store (i32.add (local.get $L) (i32.shl (local.get $x) (i32.const 2)))
               (select (local.get $x) (local.get $lx) (local.get $close)))
    (i32.store (i32.add (local.get $R) (i32.shl (local.get $x) (i32.const 2)))
               (select (local.get $x) (local.get $rx) (local.get $close))))

  ;; rows(zh, zl, w, n, J, O, left, right, lo, hi, out): n Eller rows, each
  ;; its w draws of the stream from z (fill, at lo and hi) and a sweep, into
  ;; the bytes from out on (z after them at byte 0, also when n is 0)
  (func (export "rows") (param $zh i32) (param $zl i32) (param $w i32) (param $n i32)
        (param $jf f64) (param $of f64) (param $L i32) (param $R i32)
        (param $lo i32) (param $hi i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $out) (i32.mul (local.get $w) (local.get $n))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (call $fill (local.get $zh) (local.get $zl) (local.get $w) (local.get $lo) (local.get $hi))
        (local.set $zl (i32.load (i32.const 0)))
        (local.set $zh (i32.load (i32.const 4)))
        (call $sweep (local.get $w) (local.get $jf) (local.get $of)
                     (local.get $L) (local.get $R) (local.get $lo) (local.get $hi) (local.get $out))
        (local.set $out (i32.add (local.get $out) (local.get $w)))
        (br $row)))
    (i64.store (i32.const 0) (call $join64 (local.get $zh) (local.get $zl)))))
