# Drives Blender (3.4, headless) through glTF round trips for tests/e2e/re-blender.test.ts:
#   blender -b --factory-startup --python tests/helpers/blender-gltf.py -- JOBS.json
# JOBS.json is a list of jobs; each job starts from an empty scene:
#   {"in": "a.glb", "out": "b.glb", "fps": 60,            scene frame rate before the import
#    "import": {"bone_heuristic": "BLENDER"},             importer options (none = Blender's defaults)
#    "groups": true,                                      report the vertex with the most
#                                                         weighted vertex groups after the import
#    "edit": {"bone": "L_Forearm", "frame": 12, "degrees": 60}}
#                                                         rotate that pose bone about the world
#                                                         vertical axis (Blender's Z = glTF's +Y)
#                                                         by `degrees` at that frame, keyed on the
#                                                         active action (as a user does with R Z 60)
# and is exported as .glb with the exporter's defaults. A line "JOB i: …" reports each job.
import numpy
if not hasattr(numpy, "bool"):
    # numpy.bool = bool: Debian's numpy 1.24 dropped the alias Blender 3.4's glTF add-on still
    # uses. numpy >= 2 has numpy.bool again (its own bool type, which numpy.ma needs): kept.
    numpy.bool = bool

import json
import sys

import bpy
from mathutils import Matrix


def edit_bone(arm, edit):
    ad = arm.animation_data
    action = ad.action
    start = int(round(action.frame_range[0]))
    frame = start + int(edit["frame"])
    # Only the active action is evaluated while editing (NLA tracks hold the other animations).
    use_nla = ad.use_nla
    ad.use_nla = False
    scene = bpy.context.scene
    scene.frame_set(frame)
    pb = arm.pose.bones[edit["bone"]]
    world = arm.matrix_world @ pb.matrix
    head = world.to_translation()
    turn = Matrix.Translation(head) @ Matrix.Rotation(numpy.radians(edit["degrees"]), 4, "Z") @ Matrix.Translation(-head)
    pb.matrix = arm.matrix_world.inverted() @ turn @ world
    bpy.context.view_layer.update()
    pb.keyframe_insert("rotation_quaternion", frame=frame)
    ad.use_nla = use_nla
    return "edited %s at frame %d of action %s" % (edit["bone"], frame, action.name)


def most_groups():
    # "groups N: name=weight ..." for the first vertex (of any mesh) with the most non-zero groups
    best = (0, [])
    for ob in bpy.data.objects:
        if ob.type != "MESH":
            continue
        for v in ob.data.vertices:
            gs = [(ob.vertex_groups[g.group].name, g.weight) for g in v.groups if g.weight > 0]
            if len(gs) > best[0]:
                best = (len(gs), gs)
    return "groups %d: %s" % (best[0], " ".join("%s=%.6f" % g for g in sorted(best[1], key=lambda g: -g[1])))


def run(i, job):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = int(job.get("fps", 24))
    bpy.context.scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=job["in"], **job.get("import", {}))
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    note = "%d armature(s), actions %s" % (len(arms), sorted(a.name for a in bpy.data.actions))
    if job.get("groups"):
        note += "; " + most_groups()
    if job.get("edit"):
        note += "; " + edit_bone(arms[0], job["edit"])
    bpy.ops.export_scene.gltf(filepath=job["out"], export_format="GLB")
    print("JOB %d: %s -> %s: %s" % (i, job["in"], job["out"], note), flush=True)


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    with open(argv[0]) as f:
        jobs = json.load(f)
    for i, job in enumerate(jobs):
        run(i, job)


try:
    main()
except Exception:
    import traceback
    traceback.print_exc()
    sys.stdout.flush()
    sys.exit(1)
