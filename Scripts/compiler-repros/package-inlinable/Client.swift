// The client of Lib.swift (see there): with the bug, `offerToPackage` applies `PackageBox.offer` generically
// (`apply %N<Int>`); `offerToPublic` inlines `PublicBox.offer`.
import Lib

@inline(never) package func offerToPackage(_ box: PackageBox<Int>, _ value: Int) { box.offer(value) }
@inline(never) public func offerToPublic(_ box: PublicBox<Int>, _ value: Int) { box.offer(value) }
