import Testing
@testable import ArcadeCore

/// Collision filters (Box2D's category, mask and group) and sensors.
@Suite struct PhysicsFilterTests {
    /// Two balls running head on; true when they bounced off each other.
    func collide(_ fa: CollisionFilter, _ fb: CollisionFilter, change: ((PhysicsWorld, BodyID, BodyID) -> Void)? = nil) -> Bool {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 100), gravity: .zero)
        world.boundsEnabled = false
        var da = BallDefinition(position: Vec2(150, 50), radius: 10, velocity: Vec2(100, 0), elasticity: 1)
        da.filter = fa
        var db = BallDefinition(position: Vec2(250, 50), radius: 10, velocity: Vec2(-100, 0), elasticity: 1)
        db.filter = fb
        let a = world.addBall(da), b = world.addBall(db)
        change?(world, a, b)
        world.run(60)
        return world.velocity(of: a)!.x < 0
    }

    @Test func categoriesAndMasksDecideEveryPair() {
        let categories: [UInt32] = [0b001, 0b010, 0b100]
        let masks: [UInt32] = [0b111, 0b011, 0b110, 0b000]
        for ca in categories {
            for ma in masks {
                for cb in categories {
                    for mb in masks {
                        let want = ma & cb != 0 && mb & ca != 0
                        let got = collide(CollisionFilter(category: ca, mask: ma), CollisionFilter(category: cb, mask: mb))
                        #expect(got == want, "a \(ca)/\(ma), b \(cb)/\(mb)")
                    }
                }
            }
        }
    }

    @Test func groupsOverrideTheMasks() {
        // Same positive group: always, even with masks that refuse each other.
        #expect(collide(CollisionFilter(category: 1, mask: 0, group: 3), CollisionFilter(category: 2, mask: 0, group: 3)))
        // Same negative group: never, even with masks that accept.
        #expect(!collide(CollisionFilter(group: -3), CollisionFilter(group: -3)))
        // Different groups: the masks decide.
        #expect(collide(CollisionFilter(group: -3), CollisionFilter(group: -4)))
        #expect(!collide(CollisionFilter(category: 1, mask: 2, group: 3), CollisionFilter(category: 1, mask: 2, group: 4)))
    }

    @Test func filtersChangeAtRunTime() {
        // Refusing each other at first, accepting after a change before they meet.
        #expect(collide(CollisionFilter(category: 1, mask: 0), .standard) { world, a, _ in
            world.step()
            world.setFilter(.standard, of: a)
        })
        // And the other way round.
        #expect(!collide(.standard, .standard) { world, _, b in
            world.step()
            world.setFilter(CollisionFilter(category: 4, mask: 4), of: b)
        })
    }

    @Test func wallsAndBoundsHaveFilters() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 200))
        world.boundsFilter = CollisionFilter(category: 1, mask: 1)
        let shelf = world.addWall("shelf", rect: Rect(x: 0, y: 100, width: 200, height: 10), filter: CollisionFilter(category: 2, mask: 2))!
        var ghost = BallDefinition(position: Vec2(50, 50), radius: 5)
        ghost.filter = CollisionFilter(category: 4, mask: 4)  // meets neither
        var stone = BallDefinition(position: Vec2(100, 50), radius: 5)
        stone.filter = CollisionFilter(category: 2, mask: 3)  // the shelf stops it
        var sand = BallDefinition(position: Vec2(150, 50), radius: 5)
        sand.filter = CollisionFilter(category: 1, mask: 1)  // through the shelf, onto the floor
        let g = world.addBall(ghost), s = world.addBall(stone), d = world.addBall(sand)
        world.run(90)
        #expect(world.position(of: g)!.y > 200, "the ghost fell through the floor")
        #expect(abs(world.position(of: s)!.y - 95) < 0.5)
        #expect(abs(world.position(of: d)!.y - 195) < 0.5)
        // The shelf changes its mind: the stone falls to the floor... which refuses it too.
        world.setFilter(CollisionFilter(category: 8, mask: 8), of: shelf)
        #expect(world.filter(of: shelf)?.category == 8)
        world.run(60)
        #expect(world.position(of: s)!.y > 200)
    }

    @Test func aSensorReportsBeginAndEndAndNeverPushes() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 100), gravity: .zero)
        world.boundsEnabled = false
        var bullet = BallDefinition(position: Vec2(100, 50), radius: 2, velocity: Vec2(300, 0))
        bullet.isSensor = true
        bullet.mass = 1000  // heavy: a solid bullet would shove the rock
        let shot = world.addBall(bullet)
        let rock = world.addBall(BallDefinition(position: Vec2(200, 50), radius: 10))
        // A solid wall: the sensor passes through it and reports it.
        let gate = world.addWall("gate", rect: Rect(x: 300, y: 0, width: 10, height: 100))!
        var began: [ContactEvent] = [], ended: [ContactEvent] = []
        for _ in 0..<90 {
            world.step()
            world.drainContactEvents { began.append($0) }
            world.drainSeparationEvents { ended.append($0) }
            #expect(world.velocity(of: rock)! == .zero)
            #expect(world.position(of: rock)! == Vec2(200, 50))
            #expect(world.velocity(of: shot)! == Vec2(300, 0))
        }
        // The bullet passed the rock and the sensor gate: one begin and one end each.
        #expect(began.map(\.partner) == [.body(rock), .wall(gate)])
        #expect(ended.map(\.partner) == [.body(rock), .wall(gate)])
        #expect(began.allSatisfy { $0.body == shot })
        #expect(began.last?.identifier == "gate")
        #expect(world.position(of: shot)!.x > 400)
    }

    @Test func aSensorWallReportsABallPassingThrough() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 100), gravity: .zero)
        world.boundsEnabled = false
        let ball = world.addBall(BallDefinition(position: Vec2(100, 50), radius: 5, velocity: Vec2(200, 0)))
        let line = world.addWall("finish", from: Vec2(200, 0), to: Vec2(200, 100))!
        world.setSensor(true, of: line)
        #expect(world.isSensor(line) == true)
        var began: [ContactEvent] = [], ended: [ContactEvent] = []
        for _ in 0..<60 {
            world.step()
            began += world.contactEvents
            ended += world.separationEvents
        }
        #expect(world.velocity(of: ball)! == Vec2(200, 0))
        #expect(began.map(\.partner) == [.wall(line)])
        #expect(ended.map(\.partner) == [.wall(line)])
        #expect(abs(began[0].point.x - 200) < 1e-9)
    }

    @Test func twoSensorsIgnoreEachOtherAndSensorsPassTheBounds() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100), gravity: .zero)
        var d = BallDefinition(position: Vec2(50, 50), radius: 10, velocity: Vec2(200, 0))
        d.isSensor = true
        let a = world.addBall(d)
        d.velocity = .zero
        _ = world.addBall(d)
        var events = 0
        for _ in 0..<30 {
            world.step()
            events += world.contactEvents.count
        }
        #expect(events == 0)
        #expect(world.position(of: a)!.x > 100)
    }

    @Test func aSolidBallTurnedSensorSeparates() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        world.reportsSeparations = true
        let ball = world.addBall(BallDefinition(position: Vec2(50, 90), radius: 10))
        world.run(10)
        #expect(world.separationEvents.isEmpty)
        world.setSensor(true, of: ball)
        #expect(world.isSensor(ball) == true)
        world.step()
        #expect(world.separationEvents.map(\.partner) == [.bounds])
    }

    @Test func touchesEndWithASeparationEventButNotWhenRemoved() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 200, height: 200), gravity: .zero)
        world.reportsSeparations = true
        world.boundsEnabled = false
        let a = world.addBall(BallDefinition(position: Vec2(100, 100), radius: 10, velocity: Vec2(200, 0), elasticity: 1))
        let b = world.addBall(BallDefinition(position: Vec2(125, 100), radius: 10, elasticity: 1))
        var began = 0, ended: [ContactEvent] = []
        for _ in 0..<60 {
            world.step()
            began += world.contactEvents.count
            ended += world.separationEvents
        }
        #expect(began == 1)
        #expect(ended.count == 1)
        #expect(ended.first?.body == a && ended.first?.partner == .body(b))

        // Touching, then one is removed: no separation.
        let c = world.addBall(BallDefinition(position: Vec2(20, 20), radius: 10))
        let d = world.addBall(BallDefinition(position: Vec2(39, 20), radius: 10))
        world.step()
        #expect(world.contactEvents.count == 1)
        world.removeBody(d)
        world.run(5)
        #expect(world.separationEvents.isEmpty)
        #expect(world.contains(c))
    }

    /// 2000 balls in two categories that ignore each other: no pair across them is ever a
    /// candidate of the broad phase.
    @Test func filteredPairsNeverReachTheContacts() {
        let world = PhysicsWorld(bounds: Rect(x: 0, y: 0, width: 400, height: 400), gravity: .zero)
        var random = SeededRandom(seed: 4)
        for i in 0..<400 {
            var d = BallDefinition(position: Vec2(random.nextDouble(in: 10, 390), random.nextDouble(in: 10, 390)), radius: 6)
            d.filter = i % 2 == 0 ? CollisionFilter(category: 1, mask: 1) : CollisionFilter(category: 2, mask: 2)
            world.addBall(d)
        }
        world.run(30)
        for k in 0..<world.candidateStarts.count - 1 {
            for q in Int(world.candidateStarts[k])..<Int(world.candidateStarts[k + 1]) {
                #expect((Int(world.candidates[q]) - k) % 2 == 0)
            }
        }
    }
}
