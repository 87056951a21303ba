/// A 2D world of balls and walls, stepped natively at the host's fixed rate.
///
/// The meaning follows UIKit Dynamics, which the ball-catch game was written against:
/// gravity in UIKit units (length 1 is 1000 px/s² downwards), elasticity, friction and
/// resistance per ball, walls named by identifier strings, the reference bounds as a wall
/// that can be switched off and on at any time (the gate), and one contact-began event per
/// touch. A game sets the world up and reacts to its events; nothing runs in script per step.
///
/// One ``step(_:)``:
/// 1. kinematic walls get the velocity that takes them to their target by the end of the step;
/// 2. the broad phase pairs every ball with whatever its swept box could reach this step
///    (candidates from a hashed uniform grid over boxes with a skin, kept from step to step
///    while the balls stay inside them), and each pair becomes a contact constraint, even if
///    not yet touching ("speculative": it lets the ball close the gap exactly and no
///    further, which is what stops a fast ball tunnelling through a thin wall);
/// 3. a number of substeps each integrate gravity, re-apply last substep's impulses (warm
///    starting), solve the contacts (velocities rigidly; overlaps get a soft pseudo-velocity
///    apart that moves the balls and is then thrown away, so it never becomes speed, solved
///    a few more times over the deep pairs so a pressed pile's neighbours cannot hold one
///    deep), move the balls, solve again at the new positions (relax) and apply the bounce
///    of any contact that struck in that substep;
/// 4. balls that moved far are swept against the walls and put back where they first
///    touched one they had no contact with (knocked into it mid-step), and balls a moving
///    wall pinched against another wall, directly or through other balls, are squeezed out
///    sideways (see ``squeezePinchedBalls(_:)``);
/// 5. contacts that began touching become events, bound scene objects get their positions,
///    and balls that left the removal rectangle are removed and reported.
///
/// Determinism: bodies are stored densely in creation order, removal keeps that order, the
/// broad phase emits pairs in body order, and nothing iterates a hashed collection, so the
/// same calls give bit-identical results.
///
/// Lengths are pixels, times seconds, angles radians (clockwise positive, y is down).
public final class PhysicsWorld {
    /// UIKit's gravity scale: a ``gravity`` of length 1 accelerates at 1000 px/s².
    public static let gravityScale = 1000.0

    /// Gravity in UIKit units: `(0, 1)` is UIKit's default, 1000 px/s² straight down.
    @exclusivity(unchecked) public var gravity: Vec2
    /// The reference bounds (usually the play area): a wall on all four sides while
    /// ``boundsEnabled``. They hold only balls whose centre is inside them, so a ball already
    /// on its way out when the gate shuts is not dragged back in.
    @exclusivity(unchecked) public var bounds: Rect
    /// UIKit's `translatesReferenceBoundsIntoBoundary`: switch off to open the gate.
    @exclusivity(unchecked) public var boundsEnabled = true
    /// When set, balls that end a step entirely outside this rectangle are removed and
    /// listed in ``removedBodies`` (ball catch: balls that fall out of the screen).
    @exclusivity(unchecked) public var removalRect: Rect?
    /// What the bounds collide with: a ball meets them when this filter and the ball's
    /// accept each other (``CollisionFilter``). Sensor balls pass through the bounds.
    @exclusivity(unchecked) public var boundsFilter = CollisionFilter.standard
    /// A wrap-around world on the x axis: the bounds have no left and right walls, a ball
    /// that leaves one side comes back at the other (its centre folded into the bounds after
    /// each step), and balls touch across that seam. Walls do not wrap.
    @exclusivity(unchecked) public var wrapsX = false {
        didSet { if wrapsX != oldValue { candidatesValid = false } }
    }
    /// The same for the y axis: top and bottom meet.
    @exclusivity(unchecked) public var wrapsY = false {
        didSet { if wrapsY != oldValue { candidatesValid = false } }
    }
    /// Substeps per step; more is stiffer and more accurate, and costs proportionally.
    @exclusivity(unchecked) public var substeps = 4 {
        didSet { substeps = max(1, substeps) }
    }
    /// Impacts slower than this (px/s) do not bounce, so a dropped ball comes to rest
    /// instead of chattering forever.
    @exclusivity(unchecked) public var restitutionThreshold = 100.0
    /// Fastest speed (px/s) at which overlapping balls are pushed apart (by pseudo-velocity).
    @exclusivity(unchecked) public var maxPushVelocity = 300.0
    /// The fraction of an overlap pushed out in one substep (by pseudo-velocity, which moves
    /// the balls and is then discarded). Higher separates faster and holds a pile's lowest
    /// balls apart better; near 1 a pile jitters.
    @exclusivity(unchecked) public var overlapCorrection = 0.5
    /// Overlap left alone, as a fraction of the smaller radius, so resting contacts are not
    /// pushed apart and pressed back together every substep (which makes piles creep).
    @exclusivity(unchecked) public var overlapSlop = 0.005
    /// The furthest an overlap is pushed out in one substep, as a fraction of the radius, so a
    /// ball placed deep into a wall comes out over a few steps rather than at once.
    @exclusivity(unchecked) public var overlapPushLimit = 0.2

    /// Gauss-Seidel passes over the overlaps per substep (the solve pass is the first): one
    /// pass lets a deep pair in a pressed pile be pushed back in by its neighbours as far as
    /// it is pushed out, and it stays deep for hundreds of steps.
    let overlapIterations = 4
    /// Ball pairs overlapping by more than this fraction of the smaller radius take part in
    /// the further passes; shallower ones (most of a resting pile) are left to the first.
    let overlapRowDepth = 0.02

    /// Gap within which a pair counts as touching when no impulse passed between them: this
    /// fraction of the (smaller) radius, at most `contactTolerance` px, so small balls on a
    /// small canvas are not "touching" whatever they pass near.
    let contactToleranceRatio = 0.05
    let contactTolerance = 0.5
    /// Largest gap (px) at which a striking pair counts as met and bounces.
    let bounceGap = 0.01
    /// Gauss-Seidel iterations of the bounce problem.
    let bounceIterations = 6
    /// Extra reach (px) of the speculative contacts beyond what the velocities predict, for
    /// velocity changes during the step: this fraction of the (smaller) radius, at most
    /// `speculativeMargin` px, so small balls in a pile do not each keep contacts with
    /// neighbours a large part of their size away.
    let speculativeMargin = 2.0
    let speculativeMarginRatio = 0.1
    /// Grid cell size as a multiple of the mean fat box: measured best between 1 and 3.
    let cellScale = 2.0
    /// Skin of the fat boxes the candidate pairs are found with, as a fraction of the radius.
    let candidateSkin = 0.25
    /// Steps of a ball's motion its fat box reaches ahead beyond this step's swept box.
    let candidateLead = 2.0
    /// The step length the fat boxes are stretched ahead with (the last step's).
    @exclusivity(unchecked) var leadTime = 1.0 / 60.0

    // The columns and settings the step reads are marked `@exclusivity(unchecked)`: the
    // world is confined to one thread and its loops copy what they use into locals, so the
    // runtime's per-access exclusivity bookkeeping (a thread-local lookup on every read of a
    // class property) was pure cost, about 5 % of a small world's step.

    // Bodies, dense and in creation order: index i of every column is the same body.
    @exclusivity(unchecked) var states = Column<BodyState>()
    @exclusivity(unchecked) var angles = Column<Double>()
    @exclusivity(unchecked) var materials = Column<BodyMaterial>()
    @exclusivity(unchecked) var bodyIDs = Column<UInt64>()
    @exclusivity(unchecked) var boxes = Column<AABB>()
    @exclusivity(unchecked) var startPositions = Column<PathStart>()
    @exclusivity(unchecked) var filters = Column<BodyFilter>()
    /// Balls whose filter is not the standard one or that are sensors; while there are none
    /// (and no wall or the bounds filter anything) the step tests no filters at all.
    var specialBodyCount = 0
    /// Set at the start of each step: some ball, wall or the bounds filters or senses.
    @exclusivity(unchecked) var filtering = false
    /// The wrap region last told to bound objects (nil: none told).
    var toldWrapRegion: WrapRegion?
    /// Set at the start of each step: some ball's velocity or spin is damped this step.
    @exclusivity(unchecked) var anyDamping = true
    /// Per body, the pseudo-velocity of the current substep (zero between substeps).
    @exclusivity(unchecked) var pseudoVelocities = Column<PseudoVelocity>()
    /// The overlapping contacts of the current substep, solved again for pseudo-velocity.
    @exclusivity(unchecked) var overlapRows = Column<OverlapRow>()
    var bindings: [BodyBinding?] = []
    var boundBodyCount = 0
    /// Handle slots: body index per slot (-1 when free), the slot's current generation, and
    /// free slots reused last-in first-out.
    var slotIndex: [Int32] = []
    var slotGeneration: [UInt32] = []
    var freeSlots: [Int32] = []

    /// Walls in id order; ids 0...3 name the sides of the bounds in contacts.
    var walls: [WallRecord] = []
    var nextWallID: UInt32 = 4
    /// This step's walls: the bound sides first (when enabled), then `walls` in order.
    @exclusivity(unchecked) var wallGeometry = Column<WallGeometry>()

    /// The step's ball contacts in solving order (see `colorBallContacts`).
    @exclusivity(unchecked) var ballContacts = Column<BallContact>()
    /// For each of `ballContacts`, its index in key order.
    @exclusivity(unchecked) var keyRank = Column<Int32>()
    /// The last step's ball contacts in key order, as far as the next step needs them: its
    /// warm start, and the touches.
    @exclusivity(unchecked) var lastBallContacts = Column<CarriedContact>()
    /// The same for the step before, while the last one's touches are compared with it.
    @exclusivity(unchecked) var earlierBallContacts = Column<CarriedContact>()
    /// The step's ball contacts in key order, as found, before they are put in solving order.
    @exclusivity(unchecked) var sortedBallContacts = Column<BallContact>()
    // Wall contacts of the current (after a step: the last) step, and of the one before.
    @exclusivity(unchecked) var wallContacts = Column<WallContact>()
    @exclusivity(unchecked) var previousWallContacts = Column<WallContact>()
    /// How many of `lastBallContacts` and of `wallContacts` were touching at the end of the
    /// last step: when as many carry on touching, no touch ended and nothing is compared.
    var touchingBallCount = 0
    var touchingWallCount = 0
    /// Sensor pairs within reach this step (ball pairs as `a << 32 | b`, wall pairs as
    /// `body << 32 | wall geometry index`), and the sensor touches at the end of the last step
    /// (`a << 32 | b`, and `body << 32 | wall key`), in key order.
    @exclusivity(unchecked) var sensorBallPairs = Column<UInt64>()
    @exclusivity(unchecked) var sensorWallPairs = Column<UInt64>()
    @exclusivity(unchecked) var sensorBallTouches = Column<UInt64>()
    @exclusivity(unchecked) var sensorWallTouches = Column<UInt64>()
    @exclusivity(unchecked) var spareSensorTouches = Column<UInt64>()
    @exclusivity(unchecked) var pendingBallBounces = Column<PendingBounce>()
    @exclusivity(unchecked) var pendingWallBounces = Column<PendingBounce>()
    /// The bounce problem of the current substep, and a mark per struck ball (all zero
    /// between uses).
    @exclusivity(unchecked) var bounceRows = Column<BounceRow>()
    @exclusivity(unchecked) var struckMarks = Column<UInt8>()
    /// Per ball, while pinches are squeezed: the ball pressing it, -1 when a moving wall
    /// touches it, -2 for neither.
    @exclusivity(unchecked) var pressers = Column<Int32>()

    /// The broad phase's result, kept while it holds: per ball a box grown from its swept box,
    /// and the balls of higher index whose boxes overlap it, `candidates[candidateStarts[a] ..<
    /// candidateStarts[a + 1]]`, ascending. Invalid after bodies are added or removed.
    @exclusivity(unchecked) var fatBoxes = Column<AABB>()
    @exclusivity(unchecked) var candidateStarts = Column<Int32>()
    @exclusivity(unchecked) var candidates = Column<Int32>()
    @exclusivity(unchecked) var candidatesValid = false

    /// Asked now and then while a step gathers the pairs that may touch (every 64 balls, and
    /// every 4,096 pairs found): true stops the step there, before anything has moved. The
    /// host's step budget and Ctrl-C, so balls stacked at one point cannot make a step run on.
    @exclusivity(unchecked) public var shouldStop: (() -> Bool)?
    /// The most candidate pairs one step may gather (what the host's memory cap leaves room
    /// for): a step that would gather more stops before anything has moved.
    @exclusivity(unchecked) public var pairLimit = Int.max
    /// Why the last step stopped before it finished, or nil when it finished.
    public internal(set) var stopped: StepStop?
    /// How far the fat boxes of the last full search reach beyond their balls' centres: in a
    /// wrap-around world, how near a seam a box must be to be looked for across it.
    @exclusivity(unchecked) var wrapExtent = 0.0
    /// The space the candidates were found in; they are searched again when it changes.
    var searchTopology: WrapTopology?
    /// Balls whose fat box changed since the last full search (the grid has them where they
    /// were), with a mark per ball; and the balls whose swept box left its fat box this step,
    /// also marked while their pairs are found again.
    @exclusivity(unchecked) var displaced = Column<Int32>()
    @exclusivity(unchecked) var displacedMarks = Column<UInt8>()
    @exclusivity(unchecked) var escaped = Column<Int32>()
    @exclusivity(unchecked) var escapeMarks = Column<UInt8>()
    @exclusivity(unchecked) var pairKeys = Column<UInt64>()
    @exclusivity(unchecked) var spareCandidates = Column<Int32>()
    @exclusivity(unchecked) var spareCandidateStarts = Column<Int32>()
    /// Tests switch this off to compare with searching every step, and count how often the
    /// lists were searched in full and refreshed in part.
    var keepsCandidates = true
    var candidateSearches = 0
    var candidateRefreshes = 0

    // Scratch.
    @exclusivity(unchecked) var grid = SpatialHash()
    @exclusivity(unchecked) var neighbours = Column<Int32>()
    @exclusivity(unchecked) var colorMasks = Column<UInt64>()
    @exclusivity(unchecked) var contactColors = Column<UInt8>()
    @exclusivity(unchecked) var colorStarts = Column<Int32>()
    @exclusivity(unchecked) var remap = Column<Int32>()
    @exclusivity(unchecked) var doomed = Column<UInt8>()
    @exclusivity(unchecked) var wallEvents = Column<Int32>()
    @exclusivity(unchecked) var ballEvents = Column<Int32>()

    /// Contacts that began during the last step: ordered by the ball's creation, and for one
    /// ball the bounds, then walls (by id), then other balls (by creation). Replaced by the
    /// next step; ``drainContactEvents(_:)`` hands them over exactly once.
    public internal(set) var contactEvents: [ContactEvent] = []
    /// Touches that ended during the last step (each one that had a contact event): the two
    /// came apart, a filter or sensor change parted them, or the bounds were switched off.
    /// Not when a ball or wall was removed. Same order and fields as ``contactEvents``, the
    /// point where they last touched. Replaced by the next step.
    public internal(set) var separationEvents: [ContactEvent] = []
    /// Whether the solid contacts' ends are looked for (``separationEvents``); off until
    /// someone listens, since a busy pile ends and begins many touches every step. Sensors
    /// always report theirs.
    public var reportsSeparations = false
    /// Balls the last step removed because they left ``removalRect``, in creation order.
    public internal(set) var removedBodies: [BodyID] = []

    /// An empty world over `bounds`, with UIKit's default gravity unless told otherwise.
    public init(bounds: Rect, gravity: Vec2 = Vec2(0, 1)) {
        self.bounds = bounds
        self.gravity = gravity
    }

    deinit {
        states.deallocate()
        angles.deallocate()
        materials.deallocate()
        bodyIDs.deallocate()
        boxes.deallocate()
        startPositions.deallocate()
        pseudoVelocities.deallocate()
        overlapRows.deallocate()
        filters.deallocate()
        sensorBallPairs.deallocate()
        sensorWallPairs.deallocate()
        sensorBallTouches.deallocate()
        sensorWallTouches.deallocate()
        spareSensorTouches.deallocate()
        wallGeometry.deallocate()
        ballContacts.deallocate()
        keyRank.deallocate()
        lastBallContacts.deallocate()
        sortedBallContacts.deallocate()
        earlierBallContacts.deallocate()
        colorMasks.deallocate()
        contactColors.deallocate()
        colorStarts.deallocate()
        wallContacts.deallocate()
        previousWallContacts.deallocate()
        pendingBallBounces.deallocate()
        pendingWallBounces.deallocate()
        bounceRows.deallocate()
        struckMarks.deallocate()
        pressers.deallocate()
        grid.deallocate()
        fatBoxes.deallocate()
        candidateStarts.deallocate()
        candidates.deallocate()
        displaced.deallocate()
        displacedMarks.deallocate()
        escaped.deallocate()
        escapeMarks.deallocate()
        pairKeys.deallocate()
        spareCandidates.deallocate()
        spareCandidateStarts.deallocate()
        neighbours.deallocate()
        remap.deallocate()
        doomed.deallocate()
        wallEvents.deallocate()
        ballEvents.deallocate()
    }
}

/// Why a step stopped before it finished (``PhysicsWorld/stopped``).
public enum StepStop: Sendable, Equatable {
    /// ``PhysicsWorld/shouldStop`` said so (the step's time ran out, or the player stopped it).
    case asked
    /// The pairs that may touch passed ``PhysicsWorld/pairLimit``.
    case tooManyPairs(Int)
}
