import sys,re
sys.path.insert(0, __import__('os').path.dirname(__file__))
from proto import *
from ent import ent
from collections import defaultdict

def xalt(m, alt=True):
    segs=vertical_segments(m)
    segs=[s for s in segs if s[0]>0]
    tops=defaultdict(list); bots=defaultdict(list)
    for i,(x,a,b) in enumerate(segs): tops[a].append(i); bots[b].append(i)
    for d in (tops,bots):
        for k in d: d[k].sort(key=lambda i:segs[i][0])
    used=[False]*len(segs)
    order=sorted(range(len(segs)), key=lambda i:(segs[i][1],segs[i][0]))
    out='M0 0'; cy=0; count=0
    for i0 in order:
        if used[i0]: continue
        count+=1
        x,a,b=segs[i0]
        # start going down from top a
        s=''
        if a!=cy: s+='v%d'%(a-cy)
        s+='h%d'%x
        px,py=x,a; i=i0; down=True
        while True:
            used[i]=True
            x,a,b=segs[i]
            if down: s+='v%d'%(b-a); py=b
            else: s+='v-%d'%(b-a); py=a
            down = not down if alt else down
            pool = tops[py] if down else bots[py]
            nxt=None
            for j in pool:
                if not used[j] and segs[j][0]>px: nxt=j;break
            if nxt is None and not alt: break
            if nxt is None:
                # try the other direction too
                pool = bots[py] if down else tops[py]
                for j in pool:
                    if not used[j] and segs[j][0]>px: nxt=j; down=not down; break
            if nxt is None: break
            s+='h%d'%(segs[nxt][0]-px); px=segs[nxt][0]; i=nxt
        s+='H0'; cy=py
        out+=s
    return out,count

if __name__=='__main__':
    for f in sys.argv[1:]:
        for m in load(f):
            n=len(m)
            p,c=xalt(m)
            d=svgdoc(p,n)
            sg=segno_svg(m)
            print(n,'segno',len(sg),gz(sg),'xalt',len(d),gz(d),'strands',c,ent(p))
            open('/tmp/xalt.svg','wb').write(d)
