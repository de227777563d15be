import TouchCore

/// Why a stroke is not a checkmark or a chevron, with what was measured. Put in words
/// only when read (`replay --explain`), so judging a stroke allocates nothing.
enum StrokeProblem: CustomStringConvertible {
    case tooSmall(size: Double, minimum: Double)
    case notTwoStrokes(deviation: Double)
    case firstStroke(angle: Double, needs: Double)
    case secondStroke(angle: Double, needs: Double)
    case endsLower(by: Double)
    case looksLikeV(score: Double)
    case pointsAway(angle: Double, off: Double, direction: Direction)
    case opening(Double)
    case armsDiffer(ratio: Double)
    case longPath(ratio: Double)
    case armsBend(Double, limit: Double)
    case looksLikeCheckmark(score: Double)

    var description: String {
        switch self {
        case .tooSmall(let size, let minimum): "stroke \(size.rounded0) mm across, needs \(minimum.rounded0) mm"
        case .notTwoStrokes(let deviation):
            "not two straight strokes: strays \(percent(deviation)) of its size from them, at most \(percent(StrokeShape.maxDeviation))"
        case .firstStroke(let angle, let needs): "first stroke goes \(compass(angle)), needs \(compass(needs))"
        case .secondStroke(let angle, let needs): "second stroke goes \(compass(angle)), needs \(compass(needs))"
        case .endsLower(let by): "ends \(by.rounded0) mm lower than it began, must end higher"
        case .looksLikeV(let score):
            "looks like a 'v': checkmark score \(score.formatted2) (arm ratio, opening, rise), needs \(StrokeShape.checkmarkScore.formatted2)"
        case .pointsAway(let angle, let off, let direction):
            "points \(compass(angle)) (\(off.rounded0)° off), needs \(direction.rawValue) within \(StrokeShape.maxPointingOffDegrees.rounded0)°"
        case .opening(let degrees): "opens \(degrees.rounded0)°, a chevron opens 20° to 150°"
        case .armsDiffer(let ratio): "arms differ \(ratio.formatted2)×, at most 2.2×"
        case .longPath(let ratio):
            "path \(ratio.formatted2)× the arms' length, at most \(StrokeShape.maxPathRatio.formatted2)× (hooks or loops)"
        case .armsBend(let bend, let limit): "arms bend \(percent(bend)) of their length, at most \(percent(limit))"
        case .looksLikeCheckmark(let score):
            "looks like a checkmark: checkmark score \(score.formatted2), a 'v' scores under \(StrokeShape.checkmarkScore.formatted2)"
        }
    }
}

extension StrokeShape {
    /// Why the stroke is not two straight strokes of a usable size; nil when it is.
    func basicProblem(minSize: Double) -> StrokeProblem? {
        if size < minSize { return .tooSmall(size: size, minimum: minSize) }
        if deviation > Self.maxDeviation { return .notTwoStrokes(deviation: deviation) }
        return nil
    }

    /// The checkmark test (after `basicProblem`): down-right, then a longer stroke
    /// up-right, ending higher than it began. Nil when it passes.
    var checkmarkProblem: StrokeProblem? {
        if !(-100...15).contains(firstAngle) { return .firstStroke(angle: firstAngle, needs: -45) }
        if !(15...85).contains(secondAngle) { return .secondStroke(angle: secondAngle, needs: 45) }
        if rise <= 0 { return .endsLower(by: -rise) }
        if checkmarkScore < Self.checkmarkScore { return .looksLikeV(score: checkmarkScore) }
        return nil
    }

    /// The chevron test (after `basicProblem`) for a chevron pointing `direction`, drawn
    /// in its order: '>' down-right then down-left, '<' down-left then down-right,
    /// '^' up-right then down-right, 'v' down-right then up-right. Nil when it passes.
    func chevronProblem(pointing direction: Direction) -> StrokeProblem? {
        let (pointAngle, firstArmAngle): (Double, Double) = switch direction {
        case .left: (180, -135)
        case .up: (90, 45)
        case .down: (-90, -45)
        default: (0, -45)
        }
        let off = angleDifference(pointing, pointAngle)
        if off > Self.maxPointingOffDegrees { return .pointsAway(angle: pointing, off: off, direction: direction) }
        if angleDifference(firstAngle, firstArmAngle) > 60 { return .firstStroke(angle: firstAngle, needs: firstArmAngle) }
        if !(20...150).contains(opening) { return .opening(opening) }
        let l1 = firstArm.length, l2 = secondArm.length
        let ratio = max(l1, l2) / max(min(l1, l2), 0.001)
        if ratio > 2.2 { return .armsDiffer(ratio: ratio) }
        if pathRatio > Self.maxPathRatio { return .longPath(ratio: pathRatio) }
        let bowed = armBend <= Self.maxBowedArmBend && twoSidedBend <= Self.maxBowedTwoSidedBend
        let limit = bowed ? Self.maxBowedArmBend : Self.maxArmBend
        if armBend > limit { return .armsBend(armBend, limit: limit) }
        if direction == .down, basicProblem(minSize: 0) == nil, checkmarkProblem == nil {
            return .looksLikeCheckmark(score: checkmarkScore)
        }
        return nil
    }

    /// How well it matches the chevron it passed: 1 when it points exactly.
    func chevronQuality(pointing direction: Direction) -> Double {
        let angle: Double = switch direction {
        case .left: 180
        case .up: 90
        case .down: -90
        default: 0
        }
        return 1 - angleDifference(pointing, angle) / 90
    }
}

private func percent(_ x: Double) -> String { "\((x * 100).rounded0) %" }

/// A direction on paper (angle in degrees, y up) as one of the eight names.
private func compass(_ angle: Double) -> String {
    // Direction(of:) takes screen vectors (y down).
    Direction(of: Point(x: cosDegrees(angle), y: -sinDegrees(angle))).rawValue
}
