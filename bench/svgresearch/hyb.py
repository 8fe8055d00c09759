import sys,re,gzip
sys.path.insert(0, __import__('os').path.dirname(__file__))
from proto import *
from collections import defaultdict

def hybrid(m, K):
    n=len(m)
    segs=[s for s in vertical_segments(m) if s[0]>0]
    long=[s for s in segs if s[2]-s[1]>=K]
    longset=set()
    for (x,a,b) in long:
        for y in range(a,b): longset.add((x,y))
    out='M0 0'; cx,cy=0,0
    # long segments as strands from the lane, sorted by top
    for (x,a,b) in sorted(long,key=lambda s:(s[1],s[0])):
        # at lane (0,cy): move to a, go right x, down, back
        s=''
        if cx!=0: s+='H0'
        if a!=cy: s+='v%d'%(a-cy)
        s+='h%dv%dH0'%(x,b-a)
        cx,cy=0,b
        out+=s
    # rows
    for y in range(n):
        ts=[]
        for (a,b) in runs_of(m[y]):
            if a>0 and (a,y) not in longset: ts.append(a)
            if (b,y) not in longset: ts.append(b)
        if not ts: continue
        h0 = y if len(ts)%2==1 else y+1
        s=''
        if cy!=h0 or cx!=0:
            if cy!=h0:
                if cx!=0: s+='H0'; cx=0
                s+='v%d'%(h0-cy)
        x=cx;h=h0
        for t in ts:
            s+='h%d'%(t-x); x=t
            dy = 1 if h==y else -1
            s+='v%d'%dy; h+=dy
        cx,cy=x,h
        out+=s
    return out

for m in load(sys.argv[1]):
    n=len(m); sg=segno_svg(m)
    r=[n,'segno',len(sg),gz(sg)]
    for K in [2,3,4,6,100]:
        d=svgdoc(hybrid(m,K),n); r+=[K,len(d),gz(d)]
        if K==3 and n==33: open('/tmp/hyb.svg','wb').write(d)
    print(*r)
