import Gestures

/// Who waits for whose failure: `requires_failure_of`, and the wait a tap adds by itself
/// for the members of its `TapGroup` ranked above it (unless the two are simultaneous). Gestures waiting for each other (a → b → a) are never recognized when
/// all of them match; `cycles()` finds them in time linear in the configuration's size,
/// so a file of 10,000 taps is checked as fast as it is read.
///
/// A tap's own waits would be quadratic as edges (each tap to every tap with more taps
/// in its group), so each group gets a chain of level nodes instead: level k leads to
/// the taps of k taps and to level k+1; a tap of k taps waits for level k+1. Only a tap
/// simultaneous with some of those gets its edges one by one.
struct WaitGraph {
    struct Edge {
        var to: Int
        /// A tap's own wait, not a `requires_failure_of`.
        var automatic: Bool
    }

    /// Nodes 0..<gestureCount are the gestures in file order; the rest are level nodes.
    private(set) var edges: [[Edge]]
    let gestureCount: Int

    init(_ specs: [GestureSpec]) {
        gestureCount = specs.count
        edges = Array(repeating: [], count: specs.count)
        var index: [String: Int] = [:]
        for (i, spec) in specs.enumerated() where index[spec.name] == nil { index[spec.name] = i }
        var together: [Int: Set<Int>] = [:]
        for (i, spec) in specs.enumerated() {
            var waited = Set<Int>()
            for name in spec.requiresFailureOf {
                if let j = index[name], j != i, waited.insert(j).inserted { edges[i].append(Edge(to: j, automatic: false)) }
            }
            for name in spec.simultaneousWith {
                guard let j = index[name], j != i else { continue }
                together[i, default: []].insert(j)
                together[j, default: []].insert(i)
            }
        }
        var groups: [TapGroup: [Int]] = [:]
        for (i, spec) in specs.enumerated() {
            if let group = TapGroup(spec) { groups[group, default: []].append(i) }
        }
        let rank = specs.map { TapGroup.rank(of: $0) ?? 0 }
        for members in groups.values {
            addTapWaits(members.sorted { (rank[$0], $0) < (rank[$1], $1) }, specs, rank, together)
        }
    }

    /// A tap group sorted by rank (see `TapGroup.rank`): level nodes, and each tap's wait.
    private mutating func addTapWaits(_ sorted: [Int], _ specs: [GestureSpec], _ rank: [Int], _ together: [Int: Set<Int>]) {
        // Where each level (a distinct rank) starts in `sorted`.
        var starts: [Int] = []
        for (position, i) in sorted.enumerated() where position == 0 || rank[sorted[position - 1]] != rank[i] {
            starts.append(position)
        }
        let firstLevel = edges.count
        for level in starts.indices {
            let end = level + 1 < starts.count ? starts[level + 1] : sorted.count
            var out = sorted[starts[level]..<end].map { Edge(to: $0, automatic: true) }
            if level + 1 < starts.count { out.append(Edge(to: firstLevel + level + 1, automatic: true)) }
            edges.append(out)
        }
        for level in starts.indices.dropLast() {
            let end = level + 1 < starts.count ? starts[level + 1] : sorted.count
            let higher = sorted[starts[level + 1]...]
            let higherFrom = rank[higher.first!]
            for i in sorted[starts[level]..<end] where TapGroup.waits(specs[i]) {
                let excluded = (together[i] ?? []).filter { TapGroup(specs[$0]) == TapGroup(specs[i]) && rank[$0] >= higherFrom }
                if excluded.isEmpty {
                    edges[i].append(Edge(to: firstLevel + level + 1, automatic: true))
                } else {
                    edges[i] += higher.filter { !excluded.contains($0) }.map { Edge(to: $0, automatic: true) }
                }
            }
        }
    }

    /// One cycle per knot of gestures waiting for each other: the shortest through the
    /// knot's first gesture in file order, as gesture indices from it (not repeated at the
    /// end), and whether a tap's own wait is part of it.
    func cycles() -> [(gestures: [Int], automatic: Bool)] {
        let component = stronglyConnectedComponents()
        var size: [Int: Int] = [:]
        for i in 0..<gestureCount { size[component[i], default: 0] += 1 }
        var found: [(gestures: [Int], automatic: Bool)] = []
        var done = Set<Int>()
        for start in 0..<gestureCount where (size[component[start]] ?? 0) >= 2 && done.insert(component[start]).inserted {
            found.append(shortestCycle(through: start, within: component))
        }
        return found
    }

    /// Breadth first from `start` back to it, inside its component.
    private func shortestCycle(through start: Int, within component: [Int]) -> (gestures: [Int], automatic: Bool) {
        var previous: [Int: Edge] = [:]
        var from: [Int: Int] = [:]
        var queue = [start], head = 0
        search: while head < queue.count {
            let node = queue[head]
            head += 1
            for edge in edges[node] where component[edge.to] == component[start] {
                if edge.to == start {
                    from[start] = node
                    previous[start] = edge
                    break search
                }
                if from[edge.to] == nil {
                    from[edge.to] = node
                    previous[edge.to] = edge
                    queue.append(edge.to)
                }
            }
        }
        var path: [Int] = []
        var automatic = false
        var node = start
        repeat {
            automatic = automatic || previous[node]!.automatic
            node = from[node]!
            if node < gestureCount { path.append(node) }
        } while node != start
        return (path.reversed(), automatic)
    }

    /// Tarjan's algorithm without recursion (a chain of 10,000 waits is 10,000 deep):
    /// each node's component number.
    private func stronglyConnectedComponents() -> [Int] {
        let count = edges.count
        var order = [Int](repeating: -1, count: count), low = [Int](repeating: 0, count: count)
        var component = [Int](repeating: -1, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = [], next = 0, components = 0
        var work: [(node: Int, edge: Int)] = []
        func visit(_ node: Int) {
            order[node] = next
            low[node] = next
            next += 1
            stack.append(node)
            onStack[node] = true
            work.append((node, 0))
        }
        for root in 0..<count where order[root] < 0 {
            visit(root)
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let to = edges[node][edge].to
                    if order[to] < 0 {
                        visit(to)
                    } else if onStack[to] {
                        low[node] = min(low[node], order[to])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == order[node] else { continue }
                while let member = stack.popLast() {
                    onStack[member] = false
                    component[member] = components
                    if member == node { break }
                }
                components += 1
            }
        }
        return component
    }
}
