/// Clamps `v` to `lo...hi`.
@inlinable public func clamp<T: Comparable>(_ v: T, _ lo: T, _ hi: T) -> T {
    min(max(v, lo), hi)
}
