"""The scripts' shared code (docs/scripts.md): running namp-vp (vp), splicing generated tables into
a document between its markers (docsplice), decoding the statistics marks of the benchmark
firmware (marks: one module per firmware) and the parts of scripts/explore (explore).

A script in scripts/ finds this package beside itself:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from namp_scripts import vp
"""
