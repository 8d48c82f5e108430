import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary'
import { parseEmvPoses, formatEmvPoses, parseVec, pickPose, poseRotations, poseFromRotations, quatAngle, formatNumber, jsonPath, topLevelKeys } from '../../../../../src-shared/formats/re'
import { SEED_SNIPPET, twoPoseFile, armsDownPose } from '../../../../fixtures/re/poses'

describe('EMV Poser JSON (spec §7.1)', () => {
  it('parses the seed snippet, Lua exponents included', () => {
    const [p] = parseEmvPoses(SEED_SNIPPET, 'AppResident.Instance.Body.ch3a8z0_body.json')
    expect(p!.name).toBe('Ada_A_Pose')
    expect(p!.joints.map((j) => j.name)).toEqual(['AdamsApple', 'B_Knit_s', 'C_Chin'])
    expect(p!.joints[0]!.euler).toEqual([0.11111450195312, -1.8742032370511e-9, 0.059826150536537])
    expect(p!.joints[2]!.euler).toEqual([0.0351074449718, 0, 0])
  })

  it('converts through the one Euler function (AdamsApple → §10.1 row)', () => {
    const [p] = parseEmvPoses(SEED_SNIPPET)
    const r = poseRotations(p!)
    const q = r.get('AdamsApple')!
    ;[0.0555038, -0.0016608, 0.0298625, 0.9980104].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 6))
    expect(quatAngle(poseRotations(p!, 'ZXY').get('B_Knit_s')!, [-0.0182997, 0.0027592, -0.0498989, 0.9985828])).toBeLessThan(1e-6)
  })

  it('holds many named poses and picks one (default: the first)', () => {
    const poses = parseEmvPoses(twoPoseFile())
    expect(poses.map((p) => p.name)).toEqual(['ArmsDown', 'Sit'])
    expect(pickPose(poses).name).toBe('ArmsDown')
    expect(pickPose(poses, 'Sit').joints.find((j) => j.name === 'root')!.position).toEqual([0, -0.45, 0.2])
    expect(() => pickPose(poses, 'Nope', 'p.json')).toThrow(/no pose named "Nope"; the file holds: "ArmsDown", "Sit"/)
  })

  it('keeps the poses in file order, integer-like names included (JS objects would list those first)', () => {
    const text = '{"2": {"J": {"_LocalEulerAngle": "vec:1.0 0.0 0.0"}}, "1": {}, "b": {}, "10": {}}'
    const poses = parseEmvPoses(text)
    expect(poses.map((p) => p.name)).toEqual(['2', '1', 'b', '10'])
    expect(pickPose(poses).name).toBe('2')
    expect(parseEmvPoses(formatEmvPoses(poses)).map((p) => p.name)).toEqual(['2', '1', 'b', '10'])
    expect(topLevelKeys('{"a\\"b": [1, {"x": "}"}], "n": null, "s": "x,y"}')).toEqual(['a"b', 'n', 's'])
  })

  it('export round-trips exactly (values, names, order, extra properties)', () => {
    const text = twoPoseFile()
    const poses = parseEmvPoses(text)
    expect(parseEmvPoses(formatEmvPoses(poses))).toEqual(poses)
    expect(formatEmvPoses(poses)).toBe(text)
    const withExtra = parseEmvPoses('{"P":{"J":{"_LocalEulerAngle":"vec:1.0 2.5 -3.0","_Custom":"x"}}}')
    expect(parseEmvPoses(formatEmvPoses(withExtra))).toEqual(withExtra)
  })

  it('writes EMV-style values: "vec:" and Lua-like floats', () => {
    expect(formatNumber(0)).toBe('0.0')
    expect(formatNumber(-2)).toBe('-2.0')
    expect(formatNumber(0.1)).toBe('0.1')
    const text = formatEmvPoses([{ name: 'P', joints: [{ name: 'root', euler: [0, 1.5, -0.25] }] }])
    expect(JSON.parse(text)).toEqual({ P: { root: { _LocalEulerAngle: 'vec:0.0 1.5 -0.25' } } })
  })

  it('quaternion → EMV → quaternion keeps the rotation', () => {
    const rot = poseRotations(armsDownPose())
    const back = poseRotations(parseEmvPoses(formatEmvPoses([poseFromRotations('x', rot)]))[0]!)
    for (const [k, q] of rot) expect(quatAngle(back.get(k)!, q)).toBeLessThan(1e-9)
    expect(back.size).toBe(rot.size)
  })
})

describe('bad pose files name the JSON path', () => {
  const err = (text: string): FormatError => {
    try {
      parseEmvPoses(text, 'pose.json')
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError)
      expect((e as Error).message).toContain('pose.json')
      return e as FormatError
    }
    throw new Error('no error')
  }
  it('malformed JSON gives the character offset', () => {
    const e = err('{"P": {"J": {"_LocalEulerAngle": "vec:1 2 3"}')
    expect(e.message).toMatch(/malformed JSON/)
    expect(e.offset).toBeTypeOf('number')
  })
  it('not an object of poses / joints / properties', () => {
    expect(err('[1, 2]').message).toMatch(/JSON object of named poses/)
    expect(err('{"P": 3}').message).toContain('$["P"]')
    expect(err('{"P": {"J": "x"}}').message).toContain('$["P"]["J"]')
  })
  it.each([
    ['"vec:1 2"', /expected 3 numbers/],
    ['"vec:1 2 3 4 5"', /2 to 4 numbers/],
    ['"vec:1 abc 3"', /component 1 "abc" is not a finite number/],
    ['"vec:1 nan 3"', /not a finite number/],
    ['"vec:1 inf 3"', /not a finite number/],
    ['"1 2 3"', /starting with "vec:"/],
    ['[1, 2, 3]', /"vec:x y z" string/],
  ])('%s', (value, re) => {
    const e = err(`{"Pose A": {"L_Hand": {"_LocalEulerAngle": ${value}}}}`)
    expect(e.message).toMatch(re)
    expect(e.structure).toBe(jsonPath('Pose A', 'L_Hand', '_LocalEulerAngle'))
  })
  it('parseVec accepts 2–4 numbers unless a count is required', () => {
    expect(parseVec('vec:1 2', '$')).toEqual([1, 2])
    expect(parseVec('vec:1 2 3 4', '$')).toEqual([1, 2, 3, 4])
    expect(parseVec('vec:-1.8742032370511e-09 .5 +2', '$')).toEqual([-1.8742032370511e-9, 0.5, 2])
  })
})
